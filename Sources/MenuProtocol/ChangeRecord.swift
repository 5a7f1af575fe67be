import MenuCore

/// One record describing part of a ``Change``: a row splice, or a node whose
/// expansion or value changed with its new state. The reply to the command that made
/// the change and the subscribers' events share these records (``EventGroup``).
public enum ChangeRecord: Sendable, Hashable {
    case splice(Splice)
    case expansion(path: String, expanded: Bool)
    case value(path: String, value: String)

    /// Writes the records of `change` into `reply`, and into `events` for the
    /// subscribers: the splices, then expansion, then values. `model` is the model
    /// after the change, which the new states are read from; splices concern
    /// expansion followers always, and config followers too when a reload caused
    /// them (`spliceTopics`).
    public static func write(
        _ change: Change, in model: MenuModel, spliceTopics: EventTopics, to reply: inout RecordWriter,
        events: inout EventGroup
    ) {
        forEach(of: change, in: model) { record in
            events.record(topics: record.topics(spliceTopics: spliceTopics), in: &reply) {
                record.write(to: &$0)
            }
        }
    }

    /// The records of `change` one at a time, written as they come, with no array
    /// of them.
    static func forEach(of change: Change, in model: MenuModel, _ body: (ChangeRecord) -> Void) {
        for s in change.splices { body(.splice(s)) }
        // Only the flag and the value: a whole row would render the title for nothing.
        for path in change.expansionChanged {
            body(.expansion(path: path, expanded: model.isExpanded(path: path)))
        }
        for path in change.valueChanged {
            body(.value(path: path, value: model.value(path: path)?.description ?? ""))
        }
    }

    func topics(spliceTopics: EventTopics) -> EventTopics {
        switch self {
        case .splice: return spliceTopics
        case .expansion: return .expansion
        case .value: return .value
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
            self = .value(path: fields[1], value: fields[2])
        default:
            return nil
        }
    }

    /// Writes the record as one line: the one place that says which field is where.
    public func write(to writer: inout RecordWriter) {
        switch self {
        case .splice(let s):
            writer.field("splice")
            writer.field(s.start)
            writer.field(s.removed)
            writer.field(s.inserted)
        case .expansion(let path, let expanded):
            writer.field("expansion")
            writer.field(path)
            writer.field(expanded ? "expanded" : "collapsed")
        case .value(let path, let value):
            writer.field("value")
            writer.field(path)
            writer.field(value)
        }
        writer.endLine()
    }
}
