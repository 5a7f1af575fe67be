/// Finds a child by parent and id in O(1), so resolving a path costs its depth and
/// not the width of the menu.
///
/// An open-addressing table of node numbers keyed by a hash of (parent, id); the ids
/// themselves stay in the tree's arrays, so the table adds 4 bytes a slot rather than
/// a second copy of every id. The tree never changes after loading, so the table is
/// built once at its final size.
struct ChildIndex: Sendable {
    private var slots: [Int32]

    init(ids: [String], parents: [Int32]) {
        var size = 16
        while size < ids.count * 2 { size <<= 1 }
        slots = [Int32](repeating: -1, count: size)
        let mask = size - 1
        for n in ids.indices {
            var s = ChildIndex.hash(parent: Int(parents[n]), id: ids[n]) & mask
            while slots[s] >= 0 { s = (s + 1) & mask }
            slots[s] = Int32(n)
        }
    }

    private static func hash(parent: Int, id: some StringProtocol) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bitPattern: Int64(parent))
        for b in id.utf8 {
            h ^= UInt64(b)
            h &*= 0x100_0000_01b3
        }
        h ^= h >> 29
        return Int(truncatingIfNeeded: h)
    }

    func find(parent: Int, id: some StringProtocol, ids: [String], parents: [Int32]) -> Int? {
        let mask = slots.count - 1
        var s = ChildIndex.hash(parent: parent, id: id) & mask
        while slots[s] >= 0 {
            let n = Int(slots[s])
            // Bytes, as the hash is: String's `==` with a Substring goes the slow way.
            if Int(parents[n]) == parent && ids[n].utf8.elementsEqual(id.utf8) { return n }
            s = (s + 1) & mask
        }
        return nil
    }
}
