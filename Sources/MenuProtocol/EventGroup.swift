/// The event lines of one command, batch, reload or load before the hub numbers
/// them: records, each with the topics it belongs to. A record that is in the reply
/// too is written once, into the reply, and the group keeps those same bytes
/// (``record(topics:in:_:)``), so a change is rendered to text once however many
/// read it, and a subscriber and the client that made the change read the same thing.
///
/// While nobody is subscribed the group only counts its records: it is numbered all
/// the same, and most changes come from a bar's click with nobody listening.
public struct EventGroup: Sendable {
    /// Whether the records are kept, rather than only counted.
    public let keepsRecords: Bool
    /// The kept records, one after another, each ended by its newline.
    private var records: [UInt8] = []
    /// Each kept record's topics and where it ends in `records`.
    private var entries: [(topics: EventTopics, end: Int)] = []
    /// How many records the group has, kept or not.
    public private(set) var count = 0
    /// The topics of its records, kept or not: what an in-process listener, which
    /// reads no records, is told.
    public private(set) var topics: EventTopics = []

    public init(keepsRecords: Bool) { self.keepsRecords = keepsRecords }

    public var isEmpty: Bool { count == 0 }

    /// Whether the group holds storage worth keeping for another group.
    public var hasStorage: Bool { records.capacity > 0 || entries.capacity > 0 }

    /// Takes `other`'s storage, emptied, for this group's records, leaving this
    /// group's in its place: a command's group in the storage of the one before.
    public mutating func takeStorage(from other: inout EventGroup) {
        swap(&records, &other.records)
        swap(&entries, &other.entries)
        records.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
    }

    /// Writes one record into `reply`, and the same bytes into the group.
    public mutating func record(
        topics: EventTopics, in reply: inout RecordWriter, _ write: (inout RecordWriter) -> Void
    ) {
        let start = reply.count
        write(&reply)
        count += 1
        self.topics.formUnion(topics)
        if keepsRecords { keep(reply.bytes[start...], topics: topics) }
    }

    /// A record for subscribers only.
    public mutating func record(topics: EventTopics, _ write: (inout RecordWriter) -> Void) {
        count += 1
        self.topics.formUnion(topics)
        guard keepsRecords else { return }
        var writer = RecordWriter()
        write(&writer)
        keep(writer.bytes[...], topics: topics)
    }

    private mutating func keep(_ record: ArraySlice<UInt8>, topics: EventTopics) {
        records.append(contentsOf: record)
        entries.append((topics, records.count))
    }

    /// What a subscriber to `topics` reads: `event SEQ RECORD` for each record of its
    /// topics, then `event SEQ end`, which closes the group so that a bar can redraw
    /// once per command rather than per line. Nil when no record is for it.
    public func lines(sequence: UInt64, for topics: EventTopics) -> [UInt8]? {
        var writer = RecordWriter()
        guard write(sequence: sequence, for: topics, to: &writer) else { return nil }
        return writer.bytes
    }

    /// The same lines written into `writer`, kept by the caller from one group to the
    /// next; false, writing nothing, when no record is for `topics`.
    public func write(sequence: UInt64, for topics: EventTopics, to writer: inout RecordWriter) -> Bool {
        var start = 0
        var wrote = false
        for entry in entries {
            defer { start = entry.end }
            guard !entry.topics.isDisjoint(with: topics) else { continue }
            Self.writePrefix(sequence, to: &writer)
            writer.append(line: records[start..<entry.end])
            wrote = true
        }
        guard wrote else { return false }
        Self.writePrefix(sequence, to: &writer)
        writer.field(literal: "end")
        writer.endLine()
        return true
    }

    private static func writePrefix(_ sequence: UInt64, to writer: inout RecordWriter) {
        writer.field(literal: "event")
        writer.field(Int(truncatingIfNeeded: sequence))
    }
}
