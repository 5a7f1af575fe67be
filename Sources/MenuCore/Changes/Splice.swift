/// A change to the visible row list: at `start`, `removed` rows go and `inserted`
/// rows come, like a table view's delete/insert index paths.
///
/// A ``Change`` lists its splices in ascending order, each in the coordinates left by
/// the ones before it, so a client applies them one after another; the inserted rows
/// are then the rows `start ..< start + inserted` of the new list.
public struct Splice: Sendable, Hashable, CustomStringConvertible {
    public var start: Int
    public var removed: Int
    public var inserted: Int

    public init(start: Int, removed: Int, inserted: Int) {
        self.start = start
        self.removed = removed
        self.inserted = inserted
    }

    public var description: String { "\(start) -\(removed) +\(inserted)" }
}
