import MenuCore
import Testing

/// ``Splice/compose(_:then:)`` against applying the two lists one after the other to
/// rows that remember where they came from.
@Suite struct SpliceCompositionTests {
    /// Rows as numbers: an old row is its index, an inserted row -1.
    private func apply(_ splices: [Splice], to rows: [Int]) -> [Int] {
        var rows = rows
        for s in splices {
            rows.replaceSubrange(s.start..<(s.start + s.removed), with: repeatElement(-1, count: s.inserted))
        }
        return rows
    }

    /// Random splices over `count` rows in ``Change``'s form: ascending, each in the
    /// coordinates left by the ones before, none empty, kept rows between them.
    private func randomSplices(over count: Int, using rng: inout some RandomNumberGenerator) -> [Splice] {
        var out: [Splice] = []
        var row = 0
        var left = count
        while Bool.random(using: &rng) {
            let skip =
                out.isEmpty
                ? Int.random(in: 0...min(left, 3), using: &rng) : 1 + Int.random(in: 0...2, using: &rng)
            guard skip <= left else { break }
            let removed = Int.random(in: 0...min(left - skip, 3), using: &rng)
            let inserted = Int.random(in: (removed == 0 ? 1 : 0)...3, using: &rng)
            out.append(Splice(start: row + skip, removed: removed, inserted: inserted))
            row += skip + inserted
            left -= skip + removed
        }
        return out
    }

    @Test func composingIsApplyingOneAfterTheOther() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            let old = Array(0..<Int.random(in: 0..<12, using: &rng))
            let first = randomSplices(over: old.count, using: &rng)
            let middle = apply(first, to: old)
            let second = randomSplices(over: middle.count, using: &rng)
            let composed = Splice.compose(first, then: second)
            #expect(
                apply(composed, to: old) == apply(second, to: middle), "\(first) then \(second): \(composed)")
            for (a, b) in zip(composed, composed.dropFirst()) { #expect(a.start + a.inserted < b.start) }
            #expect(composed.allSatisfy { $0.removed + $0.inserted > 0 })
        }
    }

    @Test func aLoadingRowInsertedThenReplacedIsOneInsertion() {
        let opened = [Splice(start: 2, removed: 0, inserted: 1)]
        let loaded = [Splice(start: 2, removed: 1, inserted: 2)]
        #expect(Splice.compose(opened, then: loaded) == [Splice(start: 2, removed: 0, inserted: 2)])
    }
}
