/// What one command or batch did to the model: the row splices and the nodes whose
/// expansion or value changed. Views and subscribers update from this alone.
public struct Change: Sendable, Hashable {
    public var splices: [Splice]
    /// Paths whose expanded flag differs from before, in tree order.
    public var expansionChanged: [String]
    /// Paths whose value differs from before, in tree order.
    public var valueChanged: [String]

    public init(splices: [Splice] = [], expansionChanged: [String] = [], valueChanged: [String] = []) {
        self.splices = splices
        self.expansionChanged = expansionChanged
        self.valueChanged = valueChanged
    }

    public var isEmpty: Bool { splices.isEmpty && expansionChanged.isEmpty && valueChanged.isEmpty }
}
