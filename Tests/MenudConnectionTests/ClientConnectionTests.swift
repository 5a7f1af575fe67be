import MenuCore
import MenuProtocol
import Testing

@testable import menud

/// The connection driven with bytes alone: framing, pipelining, batches, deferred
/// replies, half-close and back-pressure, without a socket or a running loop.
@Suite struct ClientConnectionTests {
    @Test func greetsThenAnswersPipelinedRequestsInOrder() throws {
        let harness = try ConnectionHarness()
        let (connection, transport) = harness.connect()
        #expect(transport.lines == ["OK MENUD 1"])
        #expect(transport.isReading)
        connection.received("ping\nget power\nnope\nversion\n")
        let answers = replies(transport.lines)
        #expect(answers.count == 4)
        #expect(answers[0] == ["OK"])
        #expect(
            answers[1].count == 2 && answers[1][0].hasPrefix("row\t") && answers[1][0].contains("\tpower\t"))
        #expect(answers[2].count == 1 && answers[2][0].hasPrefix("ERR unknown-command "))
        #expect(answers[3] == ["protocol\t1", "menud\t\(ServerCommands.daemonVersion)", "OK"])
    }

    /// The same requests, cut in two at every byte, and fed one byte at a time, get
    /// the same replies as when they come in one read.
    @Test func framingSplitAtEveryByte() throws {
        let text = Array("get power\r\nping\n\nversion\nget  \"power\"\n".utf8)
        func answers(_ reads: [ArraySlice<UInt8>]) throws -> [String] {
            let harness = try ConnectionHarness()
            let (connection, transport) = harness.connect()
            for read in reads { Array(read).withUnsafeBytes { connection.received($0) } }
            return transport.lines
        }
        let whole = try answers([text[...]])
        #expect(replies(whole).count == 4)
        for cut in 0...text.count {
            #expect(try answers([text[..<cut], text[cut...]]) == whole, "cut at \(cut)")
        }
        #expect(try answers(text.indices.map { text[$0...$0] }) == whole)
    }

    /// A line over the limit is one `line-too-long`, however many reads bring it, and
    /// the request after it is served.
    @Test(arguments: [1000, 4096, 65536, Request.maximumLineLength * 3])
    func anOverLongLineIsOneErrorAndTheNextIsServed(readSize: Int) throws {
        let harness = try ConnectionHarness()
        let (connection, transport) = harness.connect()
        // Five bytes more than three limits: with reads of three limits the rest of
        // the line comes in a read of its own, after the part kept was dropped.
        let long = Array(repeating: UInt8(ascii: "x"), count: Request.maximumLineLength * 3 + 5)
        let bytes = long + Array("\nping\n".utf8)
        var start = 0
        while start < bytes.count {
            let end = min(start + readSize, bytes.count)
            Array(bytes[start..<end]).withUnsafeBytes { connection.received($0) }
            start = end
        }
        let answers = replies(transport.lines)
        #expect(answers.count == 2, "\(answers.map { $0.last ?? "" })")
        #expect(answers.first?.last?.hasPrefix("ERR line-too-long ") == true)
        #expect(answers.last == ["OK"])
    }

    /// A line of exactly the limit, with or without `\r`, is read as a request.
    @Test func aLineOfTheLimitIsARequest() throws {
        let harness = try ConnectionHarness()
        let (connection, transport) = harness.connect()
        let word = String(repeating: "x", count: Request.maximumLineLength)
        connection.received(word + "\r\n" + word + "\n")
        let answers = replies(transport.lines)
        #expect(answers.count == 2)
        #expect(answers.allSatisfy { $0.last?.hasPrefix("ERR unknown-command ") == true })
    }

    @Test func aBatchAnswersOnceAndAppliesAllOrNothing() throws {
        let harness = try ConnectionHarness()
        let (connection, transport) = harness.connect()
        connection.received("begin\ntoggle power\nnope\nend\nget power\n")
        var answers = replies(transport.lines)
        #expect(answers.count == 2, "\(answers)")
        #expect(answers[0].last?.hasPrefix("ERR batch-failed 2: unknown-command") == true, "\(answers[0])")
        #expect(answers[1][0].contains("\tcollapsed\t"), "the failed batch was undone: \(answers[1])")

        connection.received("begin\ntoggle power\nping\nend\nget power\n")
        answers = replies(transport.lines)
        #expect(answers.count == 4, "\(answers)")
        #expect(answers[2].last == "OK")
        #expect(answers[2].contains("expansion\tpower\texpanded"), "\(answers[2])")
        #expect(answers[3][0].contains("\texpanded\t"))

        connection.received("end\nbegin\nsubscribe\nend\n")
        answers = replies(transport.lines)
        #expect(answers[4].last?.hasPrefix("ERR not-in-batch ") == true)
        #expect(answers[5].last?.hasPrefix("ERR batch-failed 1: not-batchable") == true, "\(answers[5])")
    }

    /// The connection reads every line into the same storage; a batch's requests,
    /// run only at `end`, keep their own words however many lines come after them in
    /// the same read, and a `get` after a change reads the node's new row.
    @Test func queuedRequestsKeepTheirWordsAndRowsFollowChanges() throws {
        let harness = try ConnectionHarness()
        let (connection, transport) = harness.connect()
        connection.received(
            "get display/volume\nbegin\nset display/volume 35\nset \"display/brightness\" 90\n"
                + "toggle power\nend\nget display/volume\nget display/brightness\nget power\n")
        let answers = replies(transport.lines)
        #expect(answers.count == 5, "\(answers)")
        #expect(answers[1].last == "OK", "\(answers[1])")
        #expect(answers[2][0].contains("\tdisplay/volume\t35\tVolume: 35%\t"), "\(answers[2])")
        #expect(answers[3][0].contains("\tdisplay/brightness\t90\t"), "\(answers[3])")
        #expect(answers[4][0].contains("\texpanded\t"), "\(answers[4])")
    }

    /// After the client's end of input every request is answered, a last one without
    /// a newline too, and the connection then shuts down.
    @Test func halfCloseAnswersEverythingThenShutsDown() throws {
        let harness = try ConnectionHarness()
        let (connection, transport) = harness.connect()
        connection.received("ping\nget power\nping")
        #expect(replies(transport.lines).count == 2)
        #expect(!transport.isShutDown)
        connection.inputDidEnd()
        #expect(replies(transport.lines).count == 3)
        #expect(transport.isShutDown)
    }

    /// A subscriber let go of without a close is freed, and leaves the hub: the hub
    /// does not hold it strongly, so connection, daemon state and hub make no cycle.
    @Test func aSubscriberLetGoOfIsFreedWithoutAClose() throws {
        let harness = try ConnectionHarness(commands: CommandTable.standard)
        weak var subscriber: ClientConnection?
        do {
            let (connection, transport) = harness.connect()
            connection.received("subscribe\n")
            #expect(replies(transport.lines) == [["OK"]])
            #expect(harness.service.events.subscriberCount == 1)
            subscriber = connection
        }
        #expect(subscriber == nil)
        #expect(harness.service.events.subscriberCount == 0)
        // The next group reaches nobody, and nothing freed.
        let (other, transport) = harness.connect()
        other.received("toggle power\n")
        #expect(replies(transport.lines).last?.last == "OK")
    }

    /// A command that must wait holds back the connection's later requests, and its
    /// reply comes first; meanwhile other connections are served.
    @Test func aWaitingCommandHoldsBackLaterRequests() throws {
        let gate = Gate()
        let table = CommandTable(
            CommandTable.standard.commands + [
                Command(
                    CommandSpec("wait", "", "", arguments: 0...0, batchable: false),
                    action: .deferred { _, _ in gate.completion })
            ])
        let harness = try ConnectionHarness(commands: table)
        let (connection, transport) = harness.connect()
        connection.received("wait\nget power\n")
        connection.inputDidEnd()
        #expect(replies(transport.lines).isEmpty)
        let (second, secondTransport) = harness.connect()
        second.received("ping\n")
        #expect(replies(secondTransport.lines) == [["OK"]])
        #expect(!transport.isShutDown)

        var output = CommandOutput(listening: false)
        output.reply.record(["waited"])
        gate.completion.succeed(output)
        let answers = replies(transport.lines)
        #expect(answers.count == 2)
        #expect(answers.first == ["waited", "OK"])
        #expect(answers.last?.first?.contains("\tpower\t") == true)
        #expect(transport.isShutDown)
    }

    /// A client that does not read: once its unsent replies pass the high-water mark
    /// the connection stops reading and serving, so what it holds stays bounded; when
    /// the client has read them, the rest is served.
    @Test func backPressureStopsReadingUntilDrained() throws {
        let harness = try ConnectionHarness()
        let (connection, transport) = harness.connect()
        var changes: [Bool] = []
        connection.onWritabilityChanged = { changes.append($0) }
        transport.accepting = false
        let count = 1000
        connection.received(String(repeating: "tree\n", count: count))
        #expect(!transport.isReading)
        #expect(!connection.isWritable)
        #expect(changes == [false])
        let held = transport.queuedBytes
        #expect(held > ClientConnection.highWaterMark)
        #expect(held < ClientConnection.highWaterMark + 2 * ClientConnection.chunkSize)
        #expect(replies(transport.lines).isEmpty)

        var rounds = 0
        while transport.queuedBytes > 0, rounds < 1000 {
            // The client reads what was queued, and no more until the next round.
            transport.drain()
            transport.accepting = false
            connection.drained()
            #expect(transport.queuedBytes < ClientConnection.highWaterMark + 2 * ClientConnection.chunkSize)
            rounds += 1
        }
        let answers = replies(transport.lines)
        #expect(answers.count == count)
        #expect(answers.allSatisfy { $0.last == "OK" })
        #expect(rounds > 1)
        transport.drain()
        connection.drained()
        #expect(connection.isWritable)
        #expect(transport.isReading)
        #expect(changes.last == true)
    }

    /// A subscriber that stops reading is dropped once its unsent events would pass
    /// the bound, and the daemon goes on serving the client that made the changes.
    @Test func aSubscriberThatStopsReadingIsDroppedAtTheBound() throws {
        let harness = try ConnectionHarness()
        let (subscriber, subscriberTransport) = harness.connect()
        subscriber.received("subscribe expansion\n")
        #expect(replies(subscriberTransport.lines) == [["OK"]])
        subscriberTransport.accepting = false
        let (client, clientTransport) = harness.connect()
        var toggles = 0
        while !subscriberTransport.isClosed, toggles < 100_000 {
            client.received("toggle power\n")
            toggles += 1
            #expect(subscriberTransport.queuedBytes <= ClientConnection.subscriberLimit)
        }
        #expect(subscriberTransport.isClosed)
        #expect(toggles > 1000)
        #expect(harness.service.events.subscriberCount == 0)
        client.received("ping\n")
        #expect(replies(clientTransport.lines).last == ["OK"])
    }
}

/// A deferred command's result, completed by the test.
final class Gate: @unchecked Sendable {
    let completion = Completion<CommandOutput>()
}
