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
                let answer = index.add(-1, over: range)
                for i in range { plain[i] -= 1 }
                expectAnswer(answer, over: range, of: plain)
            } else {
                let a = Int(rng.next() % UInt64(count))
                let b = Int(rng.next() % UInt64(count))
                let range = min(a, b)..<(max(a, b) + 1)
                let answer = index.add(1, over: range)
                for i in range { plain[i] += 1 }
                expectAnswer(answer, over: range, of: plain)
                added.append(range)
            }
            for i in 0..<count {
                let expected = plain[i] == 0 ? plain[..<i].count(where: { $0 == 0 }) : nil
                #expect(index.zeroRank(of: i) == expected, "position \(i) of \(plain)")
                #expect(index.value(at: i) == plain[i], "position \(i) of \(plain)")
            }
            let a = Int(rng.next() % UInt64(count))
            let b = Int(rng.next() % UInt64(count))
            let range = min(a, b)..<(max(a, b) + 1)
            let least = plain[range].min()!
            #expect(
                index.count(equalTo: least, in: range) == plain[range].count(where: { $0 == least }),
                "\(range) of \(plain)")
        }
    }

    /// What an addition answers is the least count left in its range and how many
    /// positions there have it: a toggle's splice is sized from it.
    private func expectAnswer(
        _ answer: (minimum: Int32, count: Int), over range: Range<Int>, of plain: [Int32]
    ) {
        let least = plain[range].min()!
        #expect(answer.minimum == least, "\(range) of \(plain)")
        #expect(answer.count == plain[range].count(where: { $0 == least }), "\(range) of \(plain)")
    }
}
