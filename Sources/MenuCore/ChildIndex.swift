#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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

    private static func hash(parent: Int, id: String) -> Int {
        if let h = id.utf8.withContiguousStorageIfAvailable({ hash(parent: parent, id: $0) }) { return h }
        return Array(id.utf8).withUnsafeBufferPointer { hash(parent: parent, id: $0) }
    }

    private static func hash(parent: Int, id: UnsafeBufferPointer<UInt8>) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bitPattern: Int64(parent))
        for b in id {
            h ^= UInt64(b)
            h &*= 0x100_0000_01b3
        }
        h ^= h >> 29
        return Int(truncatingIfNeeded: h)
    }

    /// The child of `parent` whose id is the UTF-8 bytes `id`. Bytes, not strings: a
    /// path's components are looked up as slices of the path's own bytes.
    func find(parent: Int, id: UnsafeBufferPointer<UInt8>, ids: [String], parents: [Int32]) -> Int? {
        let mask = slots.count - 1
        var s = ChildIndex.hash(parent: parent, id: id) & mask
        while slots[s] >= 0 {
            let n = Int(slots[s])
            if Int(parents[n]) == parent && Self.equal(ids[n], id) { return n }
            s = (s + 1) & mask
        }
        return nil
    }

    private static func equal(_ string: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var string = string
        return string.withUTF8 { own in
            own.count == bytes.count
                && (own.isEmpty || memcmp(own.baseAddress!, bytes.baseAddress!, own.count) == 0)
        }
    }
}
