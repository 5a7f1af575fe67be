/// Counts, for every node in pre-order, how many of its ancestors are collapsed, and
/// answers "which node is visible row N" and "which row is node i" in O(log n).
///
/// A collapsed group adds 1 over the range of its descendants, so a node is visible
/// when its count is 0, and a subtree's nodes that are visible relative to its root
/// are those whose count equals the root's. The tree keeps, per segment, the minimum
/// count and how many positions reach it; that is enough both to count visible rows
/// in a range and to descend to the k-th one. The seed's `findParent` walks every
/// row instead, which is what a million-node menu cannot afford.
///
/// Lazy additions are not stored: an inner segment's pending addition is its minimum
/// less the smaller minimum of its halves, which halves the memory of the usual layout.
struct VisibilityIndex: Sendable {
    /// Leaves padded to a power of two; padding never counts as a minimum.
    private let leaves: Int
    private(set) var count: Int
    private var minimum: [Int32]
    private var reaching: [Int32]

    private static let padding = Int32.max / 4

    init(count: Int) {
        self.init(counts: [Int32](repeating: 0, count: count))
    }

    /// Builds the index from every position's count at once, in O(n), which is what
    /// loading a large menu needs rather than one range addition per group.
    init(counts: [Int32]) {
        count = counts.count
        var size = 1
        while size < count { size <<= 1 }
        leaves = size
        minimum = [Int32](repeating: VisibilityIndex.padding, count: 2 * size)
        reaching = [Int32](repeating: 0, count: 2 * size)
        for i in 0..<count {
            minimum[size + i] = counts[i]
            reaching[size + i] = 1
        }
        withMutableTables { tables in
            var node = size - 1
            while node >= 1 {
                tables.recombine(node, pending: 0)
                node -= 1
            }
        }
    }

    /// Adds `delta` to every position in `range`, and returns the least count in
    /// `range` afterwards with how many positions have it: the walk that adds passes
    /// every segment a query of the range would, so a toggle learns the size of its
    /// splice without a second walk (``count(equalTo:in:)``).
    @discardableResult
    mutating func add(_ delta: Int32, over range: Range<Int>) -> (minimum: Int32, count: Int) {
        guard !range.isEmpty else { return (0, 0) }
        var result: (Int32, Int32) = (0, 0)
        withMutableTables {
            result = $0.add(delta, range.lowerBound, range.upperBound)
        }
        return (result.0, Int(result.1))
    }

    /// The count at one position.
    func value(at position: Int) -> Int32 {
        withTables { $0.value(at: position) }
    }

    /// The number of positions before `position` whose count is 0, or nil when
    /// `position`'s own count is not 0: a node's visible row. One walk from the root
    /// to the leaf, rather than ``value(at:)`` and then ``count(equalTo:in:)`` over
    /// `0 ..< position`, which a toggle would pay for twice.
    func zeroRank(of position: Int) -> Int? {
        withTables { $0.zeroRank(of: position) }
    }

    /// How many positions in `range` have exactly `target`, given that none has less
    /// (true for a subtree and its root's count).
    func count(equalTo target: Int32, in range: Range<Int>) -> Int {
        guard !range.isEmpty else { return 0 }
        let (m, c) = withTables {
            $0.query(range.lowerBound, range.upperBound, node: 1, lo: 0, hi: $0.leaves, above: 0)
        }
        return m == target ? Int(c) : 0
    }

    /// Reads and updates go through buffer pointers: they run on every toggle and
    /// row lookup, and each array access would otherwise retain the array and check
    /// exclusive access. Buffer subscripts are still bounds-checked in debug builds.
    private func withTables<R>(_ body: (Tables) -> R) -> R {
        // Read-only: the mutable views are only for sharing `Tables` with `add`, and
        // nothing here writes through them.
        minimum.withUnsafeBufferPointer { minimum in
            reaching.withUnsafeBufferPointer { reaching in
                body(
                    Tables(
                        minimum: UnsafeMutableBufferPointer(mutating: minimum),
                        reaching: UnsafeMutableBufferPointer(mutating: reaching), leaves: leaves))
            }
        }
    }

    private mutating func withMutableTables(_ body: (Tables) -> Void) {
        let leaves = self.leaves
        minimum.withUnsafeMutableBufferPointer { minimum in
            reaching.withUnsafeMutableBufferPointer { reaching in
                body(Tables(minimum: minimum, reaching: reaching, leaves: leaves))
            }
        }
    }

    /// The segment tree's two arrays, borrowed for one operation.
    private struct Tables {
        let minimum: UnsafeMutableBufferPointer<Int32>
        let reaching: UnsafeMutableBufferPointer<Int32>
        let leaves: Int

        @inline(__always)
        func pending(_ node: Int) -> Int32 {
            node >= leaves ? 0 : minimum[node] - Swift.min(minimum[2 * node], minimum[2 * node + 1])
        }

        /// Moves every pending addition of the inner segments that meet positions
        /// `l ..< r` down to their halves, level by level from the top, so that the
        /// leaves there hold their counts.
        func pushDown(_ l: Int, _ r: Int) {
            var level = 1
            var span = leaves
            while level < leaves {
                for node in (level + l / span)...(level + (r - 1) / span) {
                    let p = pending(node)
                    if p != 0 {
                        minimum[2 * node] += p
                        minimum[2 * node + 1] += p
                    }
                }
                level <<= 1
                span >>= 1
            }
        }

        /// Computes the inner segments that meet positions `l ..< r` again from
        /// their halves, from the bottom, after ``pushDown(_:_:)`` left them nothing
        /// pending.
        func recombine(_ l: Int, _ r: Int) {
            var level = leaves >> 1
            var span = 2
            while level >= 1 {
                for node in (level + l / span)...(level + (r - 1) / span) { recombine(node, pending: 0) }
                level >>= 1
                span <<= 1
            }
        }

        @inline(__always)
        func recombine(_ node: Int, pending: Int32) {
            let l = 2 * node
            let r = l + 1
            let ml = minimum[l]
            let mr = minimum[r]
            if ml < mr {
                minimum[node] = ml + pending
                reaching[node] = reaching[l]
            } else if mr < ml {
                minimum[node] = mr + pending
                reaching[node] = reaching[r]
            } else {
                minimum[node] = ml + pending
                reaching[node] = reaching[l] + reaching[r]
            }
        }

        /// Adds `delta` over positions `l ..< r` and returns what ``query`` would for
        /// them afterwards, bottom-up with no recursion, as a toggle runs on every
        /// click. The segments that cover the range are found level by level from the
        /// leaves; every segment above them is an ancestor of the first position or
        /// of the last, so those two chains are all that must be computed again, and
        /// their pending additions, saved before, are what the covering segments'
        /// counts sit under.
        func add(_ delta: Int32, _ l: Int, _ r: Int) -> (Int32, Int32) {
            let height = leaves.trailingZeroBitCount
            let first = leaves + l
            let last = leaves + r - 1
            return withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * (height + 1)) { saved in
                // saved[k]: the pending addition of the first position's ancestor at
                // level k (1 is just above the leaves); saved[right + k]: the last's.
                // Each level's is read before anything below it changes, then the
                // covering segments at the level take the addition, then the two
                // ancestors there are computed again from their halves.
                let right = height + 1
                saved[0] = 0
                saved[right] = 0
                var lo = first
                var hi = last + 1
                var k = 0
                while k <= height {
                    if k < height {
                        saved[k + 1] = pending(first >> (k + 1))
                        saved[right + k + 1] = pending(last >> (k + 1))
                    }
                    if lo < hi {
                        if lo & 1 == 1 {
                            minimum[lo] += delta
                            if lo == first >> k { saved[k] += delta }
                            if lo == last >> k { saved[right + k] += delta }
                            lo += 1
                        }
                        if hi & 1 == 1 {
                            hi -= 1
                            minimum[hi] += delta
                            if hi == first >> k { saved[k] += delta }
                            if hi == last >> k { saved[right + k] += delta }
                        }
                        lo >>= 1
                        hi >>= 1
                    }
                    if k > 0 {
                        let p = first >> k
                        let q = last >> k
                        recombine(p, pending: saved[k])
                        if q != p { recombine(q, pending: saved[right + k]) }
                    }
                    k += 1
                }
                // Each level's entry becomes the sum of those above it: what is
                // pending over a covering segment at that level.
                var aboveFirst: Int32 = 0
                var aboveLast: Int32 = 0
                k = height
                while k >= 0 {
                    let a = saved[k]
                    let b = saved[right + k]
                    saved[k] = aboveFirst
                    saved[right + k] = aboveLast
                    aboveFirst += a
                    aboveLast += b
                    k -= 1
                }
                var least = Int32.max
                var reached: Int32 = 0
                func meet(_ node: Int, above: Int32) {
                    let m = minimum[node] + above
                    if m < least {
                        least = m
                        reached = reaching[node]
                    } else if m == least {
                        reached += reaching[node]
                    }
                }
                lo = first
                hi = last + 1
                k = 0
                while lo < hi {
                    if lo & 1 == 1 {
                        meet(lo, above: saved[k])
                        lo += 1
                    }
                    if hi & 1 == 1 {
                        hi -= 1
                        meet(hi, above: saved[right + k])
                    }
                    lo >>= 1
                    hi >>= 1
                    k += 1
                }
                return (least, reached)
            }
        }

        func value(at position: Int) -> Int32 {
            var node = 1
            var lo = 0
            var hi = leaves
            var sum: Int32 = 0
            while node < leaves {
                sum += pending(node)
                let mid = (lo + hi) / 2
                if position < mid {
                    node = 2 * node
                    hi = mid
                } else {
                    node = 2 * node + 1
                    lo = mid
                }
            }
            return sum + minimum[node]
        }

        /// No count is below 0, so a left half that lies wholly before `position`
        /// holds zeros exactly when its minimum, with what is pending above, is 0.
        func zeroRank(of position: Int) -> Int? {
            var node = 1
            var span = leaves
            var above: Int32 = 0
            var rank = 0
            while node < leaves {
                above += pending(node)
                span >>= 1
                let left = 2 * node
                if position & span == 0 {
                    node = left
                } else {
                    if minimum[left] + above == 0 { rank += Int(reaching[left]) }
                    node = left + 1
                }
            }
            return minimum[node] + above == 0 ? rank : nil
        }

        func query(_ l: Int, _ r: Int, node: Int, lo: Int, hi: Int, above: Int32) -> (Int32, Int32) {
            if l <= lo && hi <= r { return (minimum[node] + above, reaching[node]) }
            let below = above + pending(node)
            let mid = (lo + hi) / 2
            if r <= mid { return query(l, r, node: 2 * node, lo: lo, hi: mid, above: below) }
            if l >= mid { return query(l, r, node: 2 * node + 1, lo: mid, hi: hi, above: below) }
            let a = query(l, r, node: 2 * node, lo: lo, hi: mid, above: below)
            let b = query(l, r, node: 2 * node + 1, lo: mid, hi: hi, above: below)
            if a.0 < b.0 { return a }
            if b.0 < a.0 { return b }
            return (a.0, a.1 + b.1)
        }

        func find(
            _ k: inout Int, _ target: Int32, _ l: Int, _ r: Int, node: Int, lo: Int, hi: Int, above: Int32
        ) -> Int? {
            if r <= lo || hi <= l { return nil }
            if l <= lo && hi <= r {
                let m = minimum[node] + above
                if m != target { return nil }
                let c = Int(reaching[node])
                if k >= c {
                    k -= c
                    return nil
                }
                // The answer is inside this segment: walk down without range checks.
                var n = node
                var acc = above
                while n < leaves {
                    acc += pending(n)
                    let left = 2 * n
                    if minimum[left] + acc == target {
                        let lc = Int(reaching[left])
                        if k < lc {
                            n = left
                            continue
                        }
                        k -= lc
                    }
                    n = left + 1
                }
                return n - leaves
            }
            let below = above + pending(node)
            let mid = (lo + hi) / 2
            if let p = find(&k, target, l, r, node: 2 * node, lo: lo, hi: mid, above: below) { return p }
            return find(&k, target, l, r, node: 2 * node + 1, lo: mid, hi: hi, above: below)
        }
    }

    /// Replaces the counts of `old` with `counts`, moving every position after them
    /// along, as a splice of the tree's nodes does. Costs the positions of `old`
    /// when as many come as go; else the positions from `old` on, not the whole
    /// index, while the padding leaves room; else builds it again.
    mutating func replace(_ old: Range<Int>, with counts: [Int32]) {
        // As many as before (a group's children filling its vacant room): nothing
        // moves, so only the positions of `old` change.
        if counts.count == old.count {
            guard !old.isEmpty else { return }
            withMutableTables { tables in
                tables.pushDown(old.lowerBound, old.upperBound)
                for (k, c) in counts.enumerated() {
                    tables.minimum[tables.leaves + old.lowerBound + k] = c
                    tables.reaching[tables.leaves + old.lowerBound + k] = 1
                }
                tables.recombine(old.lowerBound, old.upperBound)
            }
            return
        }
        let newCount = count - old.count + counts.count
        let end = Swift.max(count, newCount)
        guard old.lowerBound < end else { return }
        guard end <= leaves else {
            var all = (0..<count).map { value(at: $0) }
            all.replaceSubrange(old, with: counts)
            self = VisibilityIndex(counts: all)
            return
        }
        let start = old.lowerBound
        let oldCount = count
        withMutableTables { tables in
            tables.pushDown(start, end)
            let leaves = tables.leaves
            let after = Array(tables.minimum[(leaves + old.upperBound)..<(leaves + oldCount)])
            var i = start
            for c in counts + after {
                tables.minimum[leaves + i] = c
                tables.reaching[leaves + i] = 1
                i += 1
            }
            while i < end {
                tables.minimum[leaves + i] = VisibilityIndex.padding
                tables.reaching[leaves + i] = 0
                i += 1
            }
            tables.recombine(start, end)
        }
        count = newCount
    }

    /// The position of the `k`-th (0-based) position in `range` whose count is `target`.
    func position(ofNth k: Int, equalTo target: Int32, in range: Range<Int>) -> Int? {
        guard k >= 0, !range.isEmpty else { return nil }
        var remaining = k
        return withTables {
            $0.find(
                &remaining, target, range.lowerBound, range.upperBound, node: 1, lo: 0, hi: $0.leaves,
                above: 0)
        }
    }
}
