import Foundation
import MenuClient
import MenuProtocol
import TestSupport
import Testing

/// `find` runs on a pool thread against the menu as it was when the request came:
/// its reply keeps its place among the connection's replies, it answers for the
/// state before a change sent after it, and a batch refuses it.
@Suite(.ownThread) struct FindOffLoopTests {
    private func values(_ reply: ProtocolReply) -> [String] {
        reply.lines.compactMap { FoundRecord(fields: ProtocolFields.fields(of: $0))?.value }
    }

    @Test func repliesKeepTheirOrderAndTheirState() async throws {
        try await withDaemon { daemon in
            let client = try daemon.connect()
            // Pipelined: a find, a change, a find, a ping.
            try client.send("find wi-fi 1\nset settings/wifi off\nfind wi-fi 1\nping\n")
            let first = try client.readReply()
            let set = try client.readReply()
            let second = try client.readReply()
            let ping = try client.readReply()
            #expect(first.isOK && set.isOK && second.isOK && ping.isOK)
            #expect(values(first) == ["on"], "\(first.lines)")
            #expect(values(second) == ["off"], "\(second.lines)")
            #expect(ping.lines.isEmpty)
            // Its errors come back as before.
            try client.send("find \"\"\nfind a b\n")
            #expect(try client.readReply().terminator == "ERR bad-query the query is empty")
            #expect(try client.readReply().terminator.hasPrefix("ERR wrong-arguments"))
        }
    }

    @Test func aBatchRefusesIt() async throws {
        try await withDaemon { daemon in
            let client = try daemon.connect()
            try client.send("begin\nfind wifi\nend\n")
            var reply = try client.readReply()
            while reply.isOK { reply = try client.readReply() }
            #expect(reply.terminator.contains("not-batchable"), "\(reply.terminator)")
        }
    }
}
