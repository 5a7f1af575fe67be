extension Array {
    /// Removes every element and keeps the storage, doing nothing when there is
    /// nothing to remove: `removeAll(keepingCapacity:)` replaces a subrange even
    /// then, and the model empties its kept arrays on every click.
    @inline(__always)
    mutating func empty() {
        if !isEmpty { removeAll(keepingCapacity: true) }
    }
}
