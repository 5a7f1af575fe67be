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
    /// What subscribers are told once the reply is on its way, in order.
    private(set) var events: EventGroup
    /// The model changes the command made, for the state file and `on-change`.
    private(set) var changes: [Change] = []
    /// Where in ``reply`` the change records begin: they come last, after the records
    /// the command wrote of its own, so that a reply held for the children of the
    /// groups it opened can tell them anew (see ``ClientConnection``).
    private(set) var changeRecordsStart: Int?

    /// `listening`: whether anybody is subscribed, so that the events' records must
    /// be kept and not only counted.
    init(listening: Bool) { events = EventGroup(keepsRecords: listening) }

    /// Empties an output that has been committed, keeping its storage, for the next
    /// command on the same connection. Most commands leave nothing to empty.
    @inline(__always)
    mutating func reset(listening: Bool) {
        closeConnection = false
        subscribe = nil
        changeRecordsStart = nil
        if !reply.isEmpty { reply.truncate(to: 0) }
        if !changes.isEmpty { changes.removeAll(keepingCapacity: true) }
        if !events.isEmpty || events.keepsRecords != listening {
            var fresh = EventGroup(keepsRecords: listening)
            // A group that kept no records (nobody listening) has no storage to hand on.
            if events.hasStorage { fresh.takeStorage(from: &events) }
            events = fresh
        }
    }

    /// Whether it holds storage worth keeping for another command's output.
    var hasStorage: Bool { reply.bytes.capacity > 0 || changes.capacity > 0 || events.hasStorage }

    /// Whether the command has anything to tell subscribers.
    var hasEvents: Bool { !events.isEmpty }

    /// Whether the command changed the model.
    var hasChanges: Bool { !changes.isEmpty }

    /// The events, taken out, for another output to carry (``carry(_:)``): a reload's
    /// events go out after the reply to the `reload` that asked for it, like every
    /// command's.
    mutating func takeEvents() -> EventGroup {
        var taken = EventGroup(keepsRecords: events.keepsRecords)
        swap(&taken, &events)
        return taken
    }

    /// Events made elsewhere, sent as this output's own once its reply is written.
    mutating func carry(_ group: EventGroup) { events = group }

    /// A record that goes in the reply and to the subscribers of `topics`.
    mutating func announce(_ fields: [String], topics: EventTopics) {
        events.record(topics: topics, in: &reply) { $0.record(fields) }
    }

    /// A record for the subscribers of `topics` only.
    mutating func notify(_ fields: [String], topics: EventTopics) {
        events.record(topics: topics) { $0.record(fields) }
    }

    /// Reports a model change: its records in the reply and for subscribers. A
    /// change that only numbered nodes anew (a group's children replaced by the same
    /// rows, or out of sight) has no records, but is kept among ``changes``: whoever
    /// gathers changes numbers its nodes after it.
    mutating func record(_ change: Change, in model: MenuModel, spliceTopics: EventTopics = .expansion) {
        if !change.isEmpty {
            if changeRecordsStart == nil { changeRecordsStart = reply.count }
            ChangeRecord.write(change, in: model, spliceTopics: spliceTopics, to: &reply, events: &events)
        } else if change.nodeSplices.isEmpty {
            return
        }
        changes.append(change)
    }
}
