/// What one command or batch did to the model: the row splices, the nodes whose
/// expansion or value changed, and how the nodes were renumbered. Views and
/// subscribers update from this alone.
///
/// Nodes are named by number, in the tree as it is after the change; a path is
/// spelled only where a record is written for a client (MenuProtocol's
/// `ChangeRecord`).
public struct Change: Sendable, Hashable {
    public var splices: [Splice]
    /// Nodes whose expanded flag differs from before, ascending.
    public var expansionChanged: [Int]
    /// Nodes whose value differs from before, ascending.
    public var valueChanged: [Int]
    /// How the node numbers moved, in the form of ``splices`` but over the node
    /// list: a `children-cmd` group's children replaced. Empty for every change a
    /// command makes, which only flips flags and sets values.
    public var nodeSplices: [Splice]

    public init(
        splices: [Splice] = [], expansionChanged: [Int] = [], valueChanged: [Int] = [],
        nodeSplices: [Splice] = []
    ) {
        self.splices = splices
        self.expansionChanged = expansionChanged
        self.valueChanged = valueChanged
        self.nodeSplices = nodeSplices
    }

    public var isEmpty: Bool { splices.isEmpty && expansionChanged.isEmpty && valueChanged.isEmpty }
}
