/// One remembered piece of state, keyed by path so that it survives edits to the
/// config that move or add other nodes.
public struct StateEntry: Sendable, Hashable, CustomStringConvertible {
    public enum Field: Sendable, Hashable {
        case expanded(Bool)
        /// The canonical text of a value, as ``Value/description`` prints it.
        case value(String)
    }

    public var path: String
    public var field: Field

    public init(path: String, field: Field) {
        self.path = path
        self.field = field
    }

    public var description: String {
        switch field {
        case .expanded(let open): return "\(path) expanded=\(open)"
        case .value(let v): return "\(path) value=\(v)"
        }
    }
}

/// A state entry that could not be applied, and why.
public struct DroppedState: Sendable, Hashable {
    public var entry: StateEntry
    public var reason: String
}
