import MenuCore

/// One record describing part of a ``Change``: a row splice, or a node whose
/// expansion or value changed with its new state. The reply to the command that made
/// the change and the subscribers' events are built from these same records, so a
/// subscriber and the client that made the change read the same thing.
public enum ChangeRecord: Sendable, Hashable {
    case splice(Splice)
    case expansion(path: String, expanded: Bool)
    case value(path: String, value: String)

    /// The records of `change`, in order: the splices, then expansion, then values.
    /// `model` is the model after the change, which the new states are read from.
    public static func of(_ change: Change, in model: MenuModel) -> [ChangeRecord] {
        var records: [ChangeRecord] = []
        records.reserveCapacity(
            change.splices.count + change.expansionChanged.count + change.valueChanged.count)
        forEach(of: change, in: model) { records.append($0) }
        return records
    }

    /// ``of(_:in:)`` one record at a time, for a reply, which writes each as it comes
    /// and needs no array of them.
    public static func forEach(of change: Change, in model: MenuModel, _ body: (ChangeRecord) -> Void) {
        for s in change.splices { body(.splice(s)) }
        // Only the flag and the value: a whole row would render the title for nothing.
        for path in change.expansionChanged {
            body(.expansion(path: path, expanded: model.isExpanded(path: path)))
        }
        for path in change.valueChanged {
            body(.value(path: path, value: model.value(path: path)?.description ?? ""))
        }
    }

    /// Who hears of it: splices concern expansion followers always, and config
    /// followers too when a reload caused them (`spliceTopics`).
    public func topics(spliceTopics: EventTopics) -> EventTopics {
        switch self {
        case .splice: return spliceTopics
        case .expansion: return .expansion
        case .value: return .value
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

    public var line: String { RecordWriter.line(write) }
}

extension Change {
    /// This change as events, for subscribers.
    public func events(in model: MenuModel, spliceTopics: EventTopics = .expansion) -> [Event] {
        ChangeRecord.of(self, in: model).map {
            Event(topics: $0.topics(spliceTopics: spliceTopics), record: $0.line)
        }
    }
}
