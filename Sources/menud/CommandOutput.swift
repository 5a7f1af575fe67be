import MenuCore
import MenuProtocol

/// What a command handler writes into while it runs.
struct CommandOutput {
    /// The reply's data lines, as protocol bytes.
    var reply = RecordWriter()
    /// Set by `close`: the connection ends once the reply is flushed.
    var closeConnection = false
    /// Set by `subscribe`: the topics this connection now receives events for.
    var subscribe: EventTopics?
    /// What subscribers are told once the reply is on its way, in order. A change's
    /// events are built only when somebody listens (``events(in:)``): most changes
    /// come from a bar's click with nobody subscribed.
    private var notices: [Notice] = []

    private enum Notice {
        case event(Event)
        case change(Change, spliceTopics: EventTopics)
    }

    /// Whether the command has anything to tell subscribers.
    var hasEvents: Bool { !notices.isEmpty }

    mutating func append(_ event: Event) { notices.append(.event(event)) }

    /// Reports a model change: its records in the reply, its events for subscribers.
    mutating func record(_ change: Change, in model: MenuModel, spliceTopics: EventTopics = .expansion) {
        guard !change.isEmpty else { return }
        ChangeRecord.forEach(of: change, in: model) { $0.write(to: &reply) }
        notices.append(.change(change, spliceTopics: spliceTopics))
    }

    /// Whether the command changed the model, without gathering what it changed.
    var hasChanges: Bool {
        notices.contains { notice in
            if case .change = notice { return true }
            return false
        }
    }

    /// The model changes the command made, for the state file and `on-change`; read
    /// in place, as nearly every command made one change or none.
    var changes: some Sequence<Change> {
        notices.lazy.compactMap { notice in
            guard case .change(let change, _) = notice else { return nil }
            return change
        }
    }

    /// The events, in order, read from `model` as the command left it.
    func events(in model: MenuModel) -> [Event] {
        notices.flatMap { notice -> [Event] in
            switch notice {
            case .event(let event): return [event]
            case .change(let change, let topics): return change.events(in: model, spliceTopics: topics)
            }
        }
    }
}
