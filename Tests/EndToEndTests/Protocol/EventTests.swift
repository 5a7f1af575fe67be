import Foundation
import MenuClient
import MenuCore
import MenuProtocol
import TestSupport
import Testing

/// One event group as a subscriber reads it: its sequence number and its records
/// (the fields after `event SEQ`), without the closing `end`.
struct EventGroup: Equatable {
    var sequence: Int
    var records: [String]
}

extension UnixSocketConnection {
    /// Reads up to and including the next `event SEQ end`, skipping nothing: every
    /// line before it must be an event line of the same group.
    func readEventGroup() throws -> EventGroup {
        var sequence: Int?
        var records: [String] = []
        while let line = try readLine() {
            let fields = ProtocolFields.fields(of: line)
            guard fields.count >= 3, fields[0] == "event", let seq = Int(fields[1]) else {
                throw TimedOut(description: "expected an event line, got '\(line)'")
            }
            if let sequence, sequence != seq {
                throw TimedOut(description: "group \(sequence) has a line of group \(seq)")
            }
            sequence = seq
            if fields[2] == "end" { return EventGroup(sequence: seq, records: records) }
            records.append(fields[2...].joined(separator: "\t"))
        }
        throw TimedOut(description: "the daemon closed the event stream")
    }

    /// Subscribes and reads the `OK`.
    func subscribe(_ topics: String = "") throws {
        try send("subscribe \(topics)\n")
        let reply = try readReply()
        #expect(reply.isOK, "subscribe: \(reply.terminator)")
    }
}

@Suite(.ownThread) struct EventTests {
    @Test func groupsArriveInOrderWithTheirPayloads() async throws {
        try await withDaemon { daemon in
            let all = try daemon.connect()
            try all.subscribe()
            let values = try daemon.connect()
            try values.subscribe("value activate")

            #expect(try daemon.request("expand apps").isOK)
            #expect(try daemon.request("set settings/wifi off").isOK)
            let batch = try daemon.connect()
            try batch.send("begin\ntoggle power\nset settings/hostname \"a b\"\nend\n")
            #expect(try batch.readReply().isOK)
            #expect(try daemon.request("activate settings/theme/Light").isOK)
            #expect(try daemon.request("get apps").isOK)  // changes nothing: no group
            #expect(try daemon.request("collapse-all").isOK)

            var groups: [EventGroup] = []
            for _ in 0..<5 { groups.append(try all.readEventGroup()) }
            let first = groups[0].sequence
            #expect(groups.map(\.sequence) == Array(first..<first + 5))
            #expect(
                groups.map(\.records) == [
                    ["splice\t1\t0\t2", "expansion\tapps\texpanded"],
                    ["value\tsettings/wifi\toff"],
                    ["splice\t8\t0\t1", "expansion\tpower\texpanded", "value\tsettings/hostname\ta b"],
                    ["activated\tsettings/theme/Light\tpicked", "value\tsettings/theme\tLight"],
                    [
                        "splice\t1\t2\t0", "splice\t2\t3\t0", "splice\t3\t1\t0", "expansion\tapps\tcollapsed",
                        "expansion\tsettings\tcollapsed", "expansion\tpower\tcollapsed",
                    ],
                ])

            // Only its topics, and whole groups keep their numbers.
            var filtered: [EventGroup] = []
            for _ in 0..<3 { filtered.append(try values.readEventGroup()) }
            #expect(
                filtered == [
                    EventGroup(sequence: first + 1, records: ["value\tsettings/wifi\toff"]),
                    EventGroup(sequence: first + 2, records: ["value\tsettings/hostname\ta b"]),
                    EventGroup(
                        sequence: first + 3,
                        records: ["activated\tsettings/theme/Light\tpicked", "value\tsettings/theme\tLight"]),
                ])
        }
    }

    /// Groups are numbered for the daemon's run whether anybody listens or not: with
    /// no subscriber no group is built, yet the changes made meanwhile use up their
    /// numbers (this menu has no `children-cmd`, so nothing else makes groups).
    @Test func changesWithNobodyListeningStillTakeTheirNumbers() async throws {
        try await withDaemon { daemon in
            #expect(try daemon.request("toggle power").isOK)
            #expect(try daemon.request("set settings/wifi off").isOK)
            let subscriber = try daemon.connect()
            try subscriber.subscribe("expansion")
            #expect(try daemon.request("toggle power").isOK)
            let group = try subscriber.readEventGroup()
            #expect(group.sequence == 3)
            #expect(group.records.last == "expansion\tpower\tcollapsed")
        }
    }

    @Test func aSubscriberStillSendsRequestsAndReadsItsReplyBeforeItsEvents() async throws {
        try await withDaemon { daemon in
            let connection = try daemon.connect()
            try connection.subscribe("expansion")
            try connection.send("expand apps\n")
            #expect(try connection.readReply().lines == ["splice\t1\t0\t2", "expansion\tapps\texpanded"])
            #expect(
                try connection.readEventGroup().records == ["splice\t1\t0\t2", "expansion\tapps\texpanded"])
        }
    }

    /// Replies to one read are gathered and written together, while a subscriber's
    /// events go out as they happen: pipelined in one write, each reply must still
    /// come before the events of its own change and after those of the one before.
    @Test func pipelinedRequestsOfASubscriberKeepEachReplyBeforeItsEvents() async throws {
        try await withDaemon { daemon in
            let connection = try daemon.connect()
            try connection.subscribe("expansion")
            try connection.send("expand apps\nget apps\ncollapse apps\nget apps\n")
            let expanded = try connection.readReply()
            #expect(expanded.lines == ["splice\t1\t0\t2", "expansion\tapps\texpanded"])
            let first = try connection.readEventGroup()
            #expect(first.records == expanded.lines)
            #expect(try connection.readReply().isOK)
            let collapsed = try connection.readReply()
            #expect(collapsed.lines.last == "expansion\tapps\tcollapsed")
            let second = try connection.readEventGroup()
            #expect(second.sequence == first.sequence + 1)
            #expect(second.records == collapsed.lines)
            #expect(try connection.readReply().isOK)
        }
    }

    /// A move that changes no row is still an event, since views show the focus; a
    /// move that goes nowhere is not, and the explicit topics of older clients stay
    /// without it.
    @Test func focusMovesAreEventsOfTheirOwnTopic() async throws {
        try await withDaemon { daemon in
            let all = try daemon.connect()
            try all.subscribe()
            let rows = try daemon.connect()
            try rows.subscribe("expansion value activate config")

            #expect(try daemon.request("nav prev").isOK)  // already on the first row
            #expect(try daemon.request("nav next").isOK)
            #expect(try daemon.request("focus power/session").isOK)
            #expect(try all.readEventGroup().records == ["focus\tsettings\tsettings"])
            #expect(
                try all.readEventGroup().records == [
                    "focus\tpower\tpower/session", "splice\t6\t0\t1", "expansion\tpower\texpanded",
                ])
            #expect(try rows.readEventGroup().records == ["splice\t6\t0\t1", "expansion\tpower\texpanded"])
        }
    }

    @Test func subscribeHelpNamesEveryTopic() async throws {
        try await withDaemon { daemon in
            let help = try daemon.request("help subscribe")
            let summary = ProtocolFields.fields(of: try #require(help.lines.first))[3]
            for topic in ["expansion", "value", "activate", "config", "focus"] {
                #expect(summary.contains(topic), "\(summary)")
            }
        }
    }

    @Test func unknownTopicIsRefused() async throws {
        try await withDaemon { daemon in
            let reply = try daemon.request("subscribe values")
            #expect(reply.errorCode == "wrong-arguments")
        }
    }

    /// A subscriber that never reads: once the kernel's socket buffer and the daemon's
    /// bounded queue are full, the daemon drops it, while a reading subscriber gets
    /// every group and the client making the changes is answered throughout.
    @Test func aSubscriberThatStopsReadingIsDropped() async throws {
        try await withDaemon { daemon in
            let stalled = try daemon.connect()
            try stalled.subscribe("value")
            let reader = try daemon.connect()
            try reader.subscribe("value")

            // Each set makes a ~4 KB event; 2000 of them are ~8 MB, far past the
            // kernel's buffer plus the daemon's 1 MiB bound.
            let writer = try daemon.connect()
            let long = String(repeating: "x", count: 4000)
            let count = 2000
            var seen = 0
            for i in 0..<count {
                try writer.send("set settings/hostname \(i % 2 == 0 ? "a" : "b")\(long)\n")
                #expect(try writer.readReply().isOK)
                // Keep the reading subscriber drained, as a live client would.
                _ = try reader.readEventGroup()
                seen += 1
            }
            #expect(seen == count)
            #expect(daemon.log.contains("dropped a subscriber"))

            // The stalled one finds, once it reads, that its stream ended early.
            var stalledGroups = 0
            do {
                while true {
                    _ = try stalled.readEventGroup()
                    stalledGroups += 1
                }
            } catch {}
            #expect(stalledGroups < count)
            #expect(try daemon.request("ping").isOK)
        }
    }
}
