import MenuCore

/// One line of an event group before the hub numbers it: a record, in the same shape
/// as the change records of a reply, and the topics it belongs to. Replies and
/// events are built from the same records so that a subscriber and the client that
/// made the change read the same thing.
struct Event: Sendable, Hashable {
    var topics: EventTopics
    var record: [String]

    /// The wire line: `event SEQ` followed by the record.
    func line(sequence: UInt64) -> String {
        ProtocolFields.record(["event", String(sequence)] + record)
    }

    /// Closes a group, so that a bar can redraw once per command rather than per line.
    static func end(sequence: UInt64) -> String {
        ProtocolFields.record(["event", String(sequence), "end"])
    }
}
