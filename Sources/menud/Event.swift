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

extension Change {
    /// The records describing this change: the row splices in order, then each node
    /// whose expansion or value changed with its new state, so a view can update
    /// without asking again. `spliceTopics` says who the splices concern: expansion
    /// followers always, config followers too when a reload caused them.
    func events(in model: MenuModel, spliceTopics: EventTopics = .expansion) -> [Event] {
        var events: [Event] = []
        for s in splices {
            events.append(
                Event(
                    topics: spliceTopics,
                    record: ["splice", String(s.start), String(s.removed), String(s.inserted)]))
        }
        for path in expansionChanged {
            // Only the flag: a whole row would render the title for nothing.
            let expanded = model.isExpanded(path: path)
            events.append(
                Event(topics: .expansion, record: ["expansion", path, expanded ? "expanded" : "collapsed"]))
        }
        for path in valueChanged {
            let value = (try? model.get(path))?.value ?? ""
            events.append(Event(topics: .value, record: ["value", path, value]))
        }
        return events
    }
}
