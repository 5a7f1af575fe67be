/// One line of an event group before the hub numbers it: a record, in the same shape
/// as the change records of a reply, and the topics it belongs to. Replies and
/// events are built from the same records so that a subscriber and the client that
/// made the change read the same thing.
public struct Event: Sendable, Hashable {
    public var topics: EventTopics
    /// The record as it goes on the wire (fields escaped and joined), without `event
    /// SEQ` in front and without its newline.
    public var record: String

    public init(topics: EventTopics, record: String) {
        self.topics = topics
        self.record = record
    }

    public init(topics: EventTopics, fields: [String]) {
        self.init(topics: topics, record: ProtocolFields.record(fields))
    }

    /// The wire line: `event SEQ` followed by the record.
    public func line(sequence: UInt64) -> String { "event\t\(sequence)\t\(record)" }

    /// Closes a group, so that a bar can redraw once per command rather than per line.
    public static func end(sequence: UInt64) -> String { "event\t\(sequence)\tend" }
}
