import MenuCore

/// One record describing part of a ``Change``: a row splice, or a node whose
/// expansion or value changed with its new state. The reply to the command that made
/// the change and the subscribers' events share these records (``EventGroup``).
public enum ChangeRecord: Sendable, Hashable {
    case splice(Splice)
    case expansion(path: String, expanded: Bool)
    /// `stale`: the value is not known to be the system's (``Row/stale``).
    case value(path: String, value: String, stale: Bool = false)

    /// Writes the records of `change` into `reply`, and into `events` for the
    /// subscribers: the splices, then expansion, then values. `model` is the model
    /// after the change, which the new states are read from; splices concern
    /// expansion followers always, and config followers too when a reload caused
    /// them (`spliceTopics`).
    ///
    /// Written field by field rather than through a ``ChangeRecord`` per record: a
    /// click's change is one splice and one expansion, and making the records and
    /// their strings costs more than writing them.
    public static func write(
        _ change: Change, in model: MenuModel, spliceTopics: EventTopics, to reply: inout RecordWriter,
        events: inout EventGroup
    ) {
        for s in change.splices {
            events.record(topics: spliceTopics, in: &reply) { writeSplice(s, to: &$0) }
        }
        // Only the flag and the value: a whole row would render the title for nothing.
        for n in change.expansionChanged {
            let expanded = model.isExpanded(n)
            events.record(topics: .expansion, in: &reply) {
                writeExpansion(expanded, to: &$0) { $0.field(pathOf: n, in: model) }
            }
        }
        for n in change.valueChanged {
            let value = model.value(of: n)?.description ?? ""
            let stale = model.isStale(n)
            events.record(topics: .value, in: &reply) {
                writeValue(value, stale: stale, to: &$0) { $0.field(pathOf: n, in: model) }
            }
        }
    }

    /// Reads a record back (a client's side of ``write(to:)``); nil when `fields` is no
    /// change record.
    public init?(fields: [String]) {
        guard fields.count >= 3 else { return nil }
        switch fields[0] {
        case "splice":
            guard fields.count >= 4, let start = Int(fields[1]), let removed = Int(fields[2]),
                let inserted = Int(fields[3])
            else { return nil }
            self = .splice(Splice(start: start, removed: removed, inserted: inserted))
        case "expansion":
            self = .expansion(path: fields[1], expanded: fields[2] == "expanded")
        case "value":
            self = .value(path: fields[1], value: fields[2], stale: fields.count > 3 && fields[3] == "stale")
        default:
            return nil
        }
    }

    /// Writes the record as one line.
    public func write(to writer: inout RecordWriter) {
        switch self {
        case .splice(let s): Self.writeSplice(s, to: &writer)
        case .expansion(let path, let expanded): Self.writeExpansion(expanded, to: &writer) { $0.field(path) }
        case .value(let path, let value, let stale):
            Self.writeValue(value, stale: stale, to: &writer) { $0.field(path) }
        }
    }

    // The one place that says which field of a record is where.

    static func writeSplice(_ s: Splice, to writer: inout RecordWriter) {
        writer.field(literal: "splice")
        writer.field(s.start)
        writer.field(s.removed)
        writer.field(s.inserted)
        writer.endLine()
    }

    /// An expansion record; `path` writes the node's path field, from a `String`
    /// or straight from the model's ids.
    static func writeExpansion(
        _ expanded: Bool, to writer: inout RecordWriter, path: (inout RecordWriter) -> Void
    ) {
        writer.field(literal: "expansion")
        path(&writer)
        if expanded { writer.field(literal: "expanded") } else { writer.field(literal: "collapsed") }
        writer.endLine()
    }

    /// A value record; `path` as for ``writeExpansion(_:to:path:)``. A fourth field,
    /// `stale`, comes only for a stale value, so that the record of every other
    /// value stays as it was.
    static func writeValue(
        _ value: String, stale: Bool, to writer: inout RecordWriter, path: (inout RecordWriter) -> Void
    ) {
        writer.field(literal: "value")
        path(&writer)
        writer.field(value)
        if stale { writer.field(literal: "stale") }
        writer.endLine()
    }
}
