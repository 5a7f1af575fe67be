/// Bytes a view renders from each node's ``Row``, kept until that row changes: the
/// daemon keeps each node's row record here, so that a `get` or `row` copies bytes
/// instead of building a `Row`, its strings and its record again.
///
/// The model marks a node stale whenever something its row shows changes (its
/// expansion, its value, a value its title or subtitle reads, its choice's pick) and
/// clears the whole cache when a splice renumbers nodes. A stale entry keeps its
/// storage, so rendering it again allocates nothing. The row's visible index is not
/// part of it: that moves whenever a group above opens or closes.
struct RowCache {
    private var entries: [Int: Entry] = [:]

    private struct Entry {
        var isValid: Bool
        var bytes: [UInt8]

        func readIfValid<Result>(_ use: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
            isValid ? bytes.withUnsafeBufferPointer(use) : nil
        }
    }

    /// Node `n`'s bytes, made by `render` into an emptied buffer when missing or stale.
    mutating func bytes<Result>(
        of n: Int, render: (inout [UInt8]) -> Void, _ use: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        if let result = entries[n]?.readIfValid(use) { return result }
        var entry = entries.removeValue(forKey: n) ?? Entry(isValid: false, bytes: [])
        entry.bytes.removeAll(keepingCapacity: true)
        render(&entry.bytes)
        entry.isValid = true
        let result = entry.bytes.withUnsafeBufferPointer(use)
        entries[n] = entry
        return result
    }

    mutating func invalidate(_ n: Int) {
        // Not `entries[n]?.isValid = false`: the dictionary's subscript makes storage
        // of its own before it looks, an allocation for every change to a node that
        // has never been read.
        if let i = entries.index(forKey: n) { entries.values[i].isValid = false }
    }

    mutating func removeAll() { entries = [:] }

    /// How many nodes have bytes, stale or not.
    var count: Int { entries.count }
}
