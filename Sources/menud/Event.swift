import MenuCore

/// One line of an event group before the hub numbers it: a record, in the same shape
/// as the change records of a reply, and the topics it belongs to. Replies and
/// events are built from the same records so that a subscriber and the client that
/// made the change read the same thing.
struct Event: Sendable, Hashable {
    var topics: EventTopics
    /// The record as it goes on the wire (fields escaped and joined), without `event
    /// SEQ` in front and without its newline.
    var record: String

    init(topics: EventTopics, record: String) {
        self.topics = topics
        self.record = record
    }

    init(topics: EventTopics, fields: [String]) {
        self.init(topics: topics, record: ProtocolFields.record(fields))
    }

    /// The wire line: `event SEQ` followed by the record.
    func line(sequence: UInt64) -> String { "event\t\(sequence)\t\(record)" }

    /// Closes a group, so that a bar can redraw once per command rather than per line.
    static func end(sequence: UInt64) -> String { "event\t\(sequence)\tend" }
}
