import PropertyBased
import Testing

@testable import MenuCore

/// The visibility index against a plain array of counts, under random range
/// additions that keep every count at 0 or above, as collapsing groups does.
@Suite struct VisibilityIndexTests {
    @Test(arguments: [1, 2, 3, 7, 8, 9, 33, 100])
    func zeroRankIsTheRowOfAVisiblePosition(count: Int) {
        var rng = Xoshiro(seed: (UInt64(count), 0x9E37_79B9, 1, 2))
        var index = VisibilityIndex(count: count)
        var plain = [Int32](repeating: 0, count: count)
        var added: [Range<Int>] = []
        for _ in 0..<200 {
            if !added.isEmpty && rng.next() % 3 == 0 {
                let range = added.remove(at: Int(rng.next() % UInt64(added.count)))
                index.add(-1, over: range)
                for i in range { plain[i] -= 1 }
            } else {
                let a = Int(rng.next() % UInt64(count))
                let b = Int(rng.next() % UInt64(count))
                let range = min(a, b)..<(max(a, b) + 1)
                index.add(1, over: range)
                for i in range { plain[i] += 1 }
                added.append(range)
            }
            for i in 0..<count {
                let expected = plain[i] == 0 ? plain[..<i].count(where: { $0 == 0 }) : nil
                #expect(index.zeroRank(of: i) == expected, "position \(i) of \(plain)")
            }
        }
    }
}
