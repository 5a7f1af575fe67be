/// The nodes of one list (the top-level menus or a group's children) finished so
/// far: how many, how many start expanded, and their ids, to catch duplicates as
/// each node is finished. Kept in a reused draft, so its storage serves one list
/// after another.
struct Siblings {
    var count = 0
    /// Expandable nodes that start expanded; an exclusive group allows one.
    var expandedCount = 0
    /// Ids with the line of their first use, each id as the node that has it in the
    /// tree's `ids`, so that emptying the list for the next one has nothing to
    /// release. Most lists are short, and a scan of a few entries is cheaper than a
    /// `Dictionary`'s hashing; a cheap hash of each id spares most string
    /// comparisons, which showed in profiles.
    private var firstIDs: [(hash: UInt64, node: Int, line: Int)] = []
    /// The same once the list outgrows ``shortList``.
    private var firstLines: [String: Int] = [:]
    private static let shortList = 16
    /// The explicit access keys (`key:`) of the list, lowercase, with the node and
    /// line that gave each. Few lists have any, so a scan does.
    private var keys: [(key: UInt8, node: Int, line: Int)] = []

    /// Records explicit key `key` of node `node`, written at `line`, and returns nil,
    /// or returns the node and line that gave it first.
    mutating func add(key: UInt8, node: Int, line: Int) -> (node: Int, line: Int)? {
        if let first = keys.first(where: { $0.key == key }) { return (first.node, first.line) }
        keys.append((key, node, line))
        return nil
    }

    /// Records `id`, whose ``hash(_:)-(String)`` is `hash` and which is node `node`'s
    /// in `ids`, and returns nil, or returns the line of its first use.
    mutating func add(_ id: String, hash: UInt64, node: Int, line: Int, ids: [String]) -> Int? {
        if firstLines.isEmpty {
            for entry in firstIDs where entry.hash == hash && ids[entry.node] == id { return entry.line }
            if firstIDs.count < Siblings.shortList {
                firstIDs.append((hash, node, line))
                return nil
            }
            for entry in firstIDs { firstLines[ids[entry.node]] = entry.line }
        }
        if let first = firstLines[id] { return first }
        firstLines[id] = line
        return nil
    }

    /// FNV-1a of the id's bytes.
    static func hash(_ id: String) -> UInt64 {
        var id = id
        return id.withUTF8 { hash($0) }
    }

    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h &*= 0x100_0000_01b3
        }
        return h
    }

    mutating func removeAll() {
        count = 0
        expandedCount = 0
        if !firstIDs.isEmpty { firstIDs.removeAll(keepingCapacity: true) }
        if !firstLines.isEmpty { firstLines.removeAll(keepingCapacity: true) }
        if !keys.isEmpty { keys.removeAll(keepingCapacity: true) }
    }
}
