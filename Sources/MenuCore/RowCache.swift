/// Bytes a view renders from each node's ``Row``, kept until that row changes: the
/// daemon keeps each node's row record here, so that a `get` or `row` copies bytes
/// instead of building a `Row`, its strings and its record again.
///
/// The model marks a node stale whenever something its row shows changes (its
/// expansion, its value, a value its title or subtitle reads, its choice's pick) and
/// clears the whole cache when a splice renumbers nodes. A stale entry keeps its
/// storage, so rendering it again allocates nothing. The row's visible index is not
/// part of it: that moves whenever a group above opens or closes.
///
/// Kept by node number in arrays, not a dictionary: a `get` then costs no hashing.
/// A node never read holds an empty array, which allocates nothing.
struct RowCache {
    private var entries: [[UInt8]] = []
    private var isValid: [Bool] = []

    /// Node `n`'s bytes, made by `render` into an emptied buffer when missing or stale.
    mutating func bytes<Result>(
        of n: Int, render: (inout [UInt8]) -> Void, _ use: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        if n < isValid.count, isValid[n] { return entries[n].withUnsafeBufferPointer(use) }
        if n >= entries.count {
            let more = n + 1 - entries.count
            entries.append(contentsOf: repeatElement([], count: more))
            isValid.append(contentsOf: repeatElement(false, count: more))
        }
        entries[n].removeAll(keepingCapacity: true)
        render(&entries[n])
        isValid[n] = true
        return entries[n].withUnsafeBufferPointer(use)
    }

    mutating func invalidate(_ n: Int) {
        if n < isValid.count, isValid[n] { isValid[n] = false }
    }

    mutating func removeAll() {
        entries = []
        isValid = []
    }

}
