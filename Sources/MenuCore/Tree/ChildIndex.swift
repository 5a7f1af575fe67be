#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds a child by parent and id in O(1), so resolving a path costs its depth and
/// not the width of the menu.
///
/// An open-addressing table of node numbers keyed by a hash of the node's path, built
/// one id at a time from its parent's; the ids themselves stay in the tree's arrays,
/// so the table adds 4 bytes a slot rather than a second copy of every id. Keyed by
/// path rather than by the parent's number because splicing a group's children
/// (``MenuTree/replaceChildren(of:with:)``) renumbers every node after them: their
/// paths, and so their slots, stay put, and only the numbers stored need shifting.
struct ChildIndex: Sendable {
    private var slots: [Int32]
    /// Nodes in the table, and slots of removed nodes that still lengthen probes.
    private var live = 0
    private var removed = 0

    private static let empty: Int32 = -1
    private static let tombstone: Int32 = -2

    /// The hash state of the empty path, which every path extends.
    static let root: UInt64 = 0xcbf2_9ce4_8422_2325

    /// Indexes every node of a tree's arrays but its vacant slots (depth < 0).
    init(ids: [String], parents: [Int32], depths: [Int32]) {
        slots = ChildIndex.table(for: ids.count)
        var states = [UInt64](repeating: 0, count: ids.count)
        var live = 0
        for n in ids.indices where depths[n] >= 0 {
            live += 1
            let parent = Int(parents[n])
            states[n] = ChildIndex.extend(parent < 0 ? ChildIndex.root : states[parent], id: ids[n])
            place(Int32(n), state: states[n])
        }
        self.live = live
    }

    private static func table(for count: Int) -> [Int32] {
        var size = 16
        while size < count * 2 { size <<= 1 }
        return [Int32](repeating: empty, count: size)
    }

    private mutating func place(_ n: Int32, state: UInt64) {
        let mask = slots.count - 1
        var s = ChildIndex.slot(state) & mask
        while slots[s] >= 0 { s = (s + 1) & mask }
        slots[s] = n
    }

    /// The hash state of a path one id longer than the one whose state is `state`.
    static func extend(_ state: UInt64, id: String) -> UInt64 {
        if let h = id.utf8.withContiguousStorageIfAvailable({ extend(state, id: $0) }) { return h }
        return Array(id.utf8).withUnsafeBufferPointer { extend(state, id: $0) }
    }

    static func extend(_ state: UInt64, id: UnsafeBufferPointer<UInt8>) -> UInt64 {
        // The separator keeps `a/bc` and `ab/c` apart.
        var h = (state ^ UInt64(UInt8(ascii: "/"))) &* 0x100_0000_01b3
        for b in id {
            h ^= UInt64(b)
            h &*= 0x100_0000_01b3
        }
        return h
    }

    private static func slot(_ state: UInt64) -> Int { Int(truncatingIfNeeded: state ^ (state >> 29)) }

    /// The child of `parent` whose id is the UTF-8 bytes `id`, where `state` is the
    /// hash state of the path from the top through `id`. Bytes, not strings: a path's
    /// components are looked up as slices of the path's own bytes.
    func find(
        parent: Int, state: UInt64, id: UnsafeBufferPointer<UInt8>, ids: [String], parents: [Int32]
    ) -> Int? {
        let mask = slots.count - 1
        var s = ChildIndex.slot(state) & mask
        while slots[s] != ChildIndex.empty {
            let n = Int(slots[s])
            if n >= 0, Int(parents[n]) == parent, Self.equal(ids[n], id) { return n }
            s = (s + 1) & mask
        }
        return nil
    }

    /// How many slots the table has.
    var capacity: Int { slots.count }

    /// Splices the table as the tree splices its arrays: the nodes `old` leave (of
    /// which `indexed` are in the table: vacant slots are not), every node after them
    /// moves by `shift`, and `added` (with their path states) come in. With
    /// `located`, the indexed nodes of `old` and of those after them with their path
    /// states, each is found from its state, which costs them alone; without, one pass
    /// over every slot does it with no hashing. Returns false, changing nothing, when
    /// the table would be more than half full of nodes and removed slots: the tree
    /// then builds it again.
    mutating func splice(
        removing old: Range<Int>, indexed: Int, shift: Int, adding added: [(node: Int, state: UInt64)],
        located: (old: [(node: Int, state: UInt64)], after: [(node: Int, state: UInt64)])? = nil
    ) -> Bool {
        guard (live + added.count + removed + indexed) * 2 <= slots.count else { return false }
        live += added.count - indexed
        removed += indexed
        if let located {
            // Every slot is found before any changes, so that a node given another's
            // old number is not found in its stead.
            let gone = located.old.map { slot(of: $0.node, state: $0.state) }
            let moved = located.after.map { (slot: slot(of: $0.node, state: $0.state), node: $0.node) }
            for s in gone { slots[s] = ChildIndex.tombstone }
            for m in moved { slots[m.slot] = Int32(m.node + shift) }
        } else {
            let low = Int32(old.lowerBound)
            let high = Int32(old.upperBound)
            let by = Int32(shift)
            slots.withUnsafeMutableBufferPointer { slots in
                for s in slots.indices {
                    let n = slots[s]
                    if n >= high {
                        slots[s] = n + by
                    } else if n >= low {
                        slots[s] = ChildIndex.tombstone
                    }
                }
            }
        }
        for (node, state) in added { place(Int32(node), state: state) }
        return true
    }

    /// The slot that holds `node`, whose path's state is `state`.
    private func slot(of node: Int, state: UInt64) -> Int {
        let mask = slots.count - 1
        var s = ChildIndex.slot(state) & mask
        while slots[s] != Int32(node) { s = (s + 1) & mask }
        return s
    }

    private static func equal(_ string: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var string = string
        return string.withUTF8 { own in
            own.count == bytes.count
                && (own.isEmpty || memcmp(own.baseAddress!, bytes.baseAddress!, own.count) == 0)
        }
    }
}
