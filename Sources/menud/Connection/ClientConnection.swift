import MenuCore
import MenuProtocol

/// One client, from its greeting to its close: it frames the bytes it is given into
/// requests, runs them through the ``CommandTable`` and writes their replies, in
/// order, through its ``ConnectionTransport``. The transport's events (a read, the end
/// of input, a drained queue, the close) are handed in by its owner, ``MenuServer``,
/// so a test can drive a connection with bytes alone.
///
/// Requests are handled one at a time and in arrival order. Most answer at once; a
/// command that must wait (a state write, a group's children command) holds back this
/// connection's later requests until it has answered, which keeps pipelined replies
/// in order while other connections go on being served.
///
/// Replies of one read are gathered and written once per read (or per
/// ``chunkSize``), so a client that pipelines gets them in one socket write. While
/// more than ``highWaterMark`` bytes wait for the client to read them, later requests
/// wait too and reading stops (back-pressure): one read can hold thousands of
/// requests, and answering them all would queue their replies without bound.
///
/// A subscribed connection also gets event groups (``send(_:)``) after the reply to
/// the command that made them.
final class ClientConnection {
    /// What the connection does with the next request. Being subscribed is not one of
    /// these: a subscriber goes on sending requests, batches too, so it is a flag
    /// (``isSubscribed``) beside them.
    enum State {
        /// Accepted, not yet greeted.
        case greeting
        /// Serving requests one by one.
        case open
        /// Between `begin` and `end`: requests are queued, not run.
        case inBatch(Batch)
        /// Closing after its last replies, or closed: nothing more is read or run.
        case closing
    }

    /// How many unsent bytes stop the serving of requests until they are taken.
    static let highWaterMark = 64 * 1024
    /// How many gathered reply bytes are written without waiting for the read's end.
    static let chunkSize = 16 * 1024
    /// How many unsent bytes a subscriber may leave before an event group that would
    /// pass them drops it: a subscriber that stops reading never slows the service.
    static let subscriberLimit = 1 << 20

    private(set) var state = State.greeting
    /// Whether the connection gets event groups; the hub keeps the topics.
    private(set) var isSubscribed = false
    /// Whether requests are served: false while too many bytes wait to be sent.
    private(set) var isWritable = true
    /// Told when ``isWritable`` changes, for the stalled-reader timeout.
    var onWritabilityChanged: ((Bool) -> Void)?
    /// Told when a read has left replies to write, once until they are written
    /// (``writeWaitingReplies()``). The server writes them after the loop has
    /// handled the turn's other reads, as redis and mpd do: a load generator, or
    /// a bar with many clients, then reads every reply of the turn in one wake-up
    /// rather than one per client, and the slowest replies come sooner
    /// (BENCHMARKS.md). Unset, as in tests without a loop, they are written at
    /// once.
    var onRepliesWaiting: ((ClientConnection) -> Void)?
    private var repliesWaiting = false

    private let transport: any ConnectionTransport
    private let service: MenuService
    /// The daemon's, held here too: reached through ``service`` it was retained and
    /// released around every request's lookup.
    private let commands: CommandTable
    private var framer = LineFramer()
    /// The words of the request being served, read into the same storage each time:
    /// a request served as it arrives costs no allocation for its words.
    private var words = RequestWords()
    /// What an ordinary command or a batch writes into, emptied for each and written
    /// in place: a command then allocates nothing for its events or its changes. This
    /// connection's own, as its replies are, so no other connection's command, set off
    /// while this one commits, can write into it.
    private var output = CommandOutput(listening: false)
    /// Requests that arrived while a command was waiting, or while unwritable.
    private var backlog: [Request] = []
    private var backlogStart = 0
    /// A command is waiting for its ``Completion``.
    private var busy = false
    /// A reply is held for the children of the groups its command opened
    /// (``hold(_:writtenFrom:until:)``); the events for this connection wait too.
    private var isHolding = false
    private var heldEvents: [UInt8] = []
    private var inputEnded = false
    /// The replies not yet handed to the transport.
    private var replies = Replies()
    /// Where the command being run began writing in ``replies`` (lent to it by
    /// ``lendReplies(to:)``), until it is answered.
    private var lentAt: Int?
    /// A held reply's own records, until the children it waits for have come.
    private var heldLines = RecordWriter()
    private let dispatcher: Dispatcher

    init(transport: any ConnectionTransport, dispatcher: Dispatcher) {
        self.transport = transport
        self.service = dispatcher.service
        self.commands = dispatcher.commands
        self.dispatcher = dispatcher
    }

    /// The event hub holds its subscribers unowned: one let go of without a close
    /// leaves it here.
    deinit {
        if isSubscribed { service.events.unsubscribe(self) }
    }

    /// What is waiting to reach the client: replies gathered and not yet written, and
    /// what the transport holds.
    var unsentBytes: Int { replies.lines.count + transport.queuedBytes }

    private var isClosing: Bool {
        if case .closing = state { return true }
        return false
    }

    private var hasBacklog: Bool { backlogStart < backlog.count }

    /// Greets the client and starts reading its requests.
    func start() {
        guard case .greeting = state else { return }
        replies.greeting(Greeting.text)
        state = .open
        flush()
        transport.startReading()
    }

    // MARK: the transport's events

    /// The bytes of one read, valid only during the call.
    func received(_ bytes: UnsafeRawBufferPointer) {
        guard !isClosing else { return }
        framer.feed(bytes) { take($0) }
        if let onRepliesWaiting, !replies.isEmpty {
            if !repliesWaiting {
                repliesWaiting = true
                onRepliesWaiting(self)
            }
        } else {
            flush()
        }
    }

    /// Writes the replies that ``received(_:)`` left waiting for the end of the
    /// loop's turn.
    func writeWaitingReplies() {
        repliesWaiting = false
        flush()
    }

    /// The client will send nothing more (`nc -N`, a shell `printf … |`): answer what
    /// it sent, then close once those answers are out.
    func inputDidEnd() {
        guard !isClosing, !inputEnded else { return }
        inputEnded = true
        framer.finish { take($0) }
        flush()
        closeIfIdle()
    }

    /// The transport has sent everything it held.
    func drained() {
        guard !isClosing else { return }
        if !isWritable, transport.queuedBytes <= Self.highWaterMark {
            isWritable = true
            onWritabilityChanged?(true)
            if !inputEnded { transport.startReading() }
        }
        drainBacklog()
    }

    /// The transport has closed, by either side.
    func closed() {
        state = .closing
        if isSubscribed {
            service.events.unsubscribe(self)
            isSubscribed = false
        }
        backlog = []
        backlogStart = 0
        heldEvents = []
        onWritabilityChanged = nil
        onRepliesWaiting = nil
    }

    /// Closes now, dropping what is unsent.
    func close() {
        state = .closing
        transport.close()
    }

    // MARK: requests

    /// Serves one framed line now, or keeps it, as a request with storage of its own,
    /// until the requests before it are answered.
    private func take(_ line: LineFramer.Line) {
        guard !isClosing else { return }
        guard !busy, !hasBacklog, isWritable else {
            if let request = line.request { backlog.append(request) }
            return
        }
        switch line {
        case .tooLong:
            process(Request.tooLong)
        case .bytes(let bytes):
            if let error = words.read(bytes) {
                process(.invalid(error))
            } else if !words.isEmpty {
                process(words)
            }
        }
    }

    private func process(_ request: Request) {
        switch request {
        case .invalid(let error): process(.failure(error))
        case .words(let words): process(words)
        }
    }

    private func process(_ words: RequestWords) {
        let invocation: Invocation
        do throws(ProtocolError) {
            invocation = try commands.resolve(words)
        } catch {
            process(.failure(error))
            return
        }
        // Served straight away, without a `Result` around it, unless in a batch.
        if case .open = state {
            handle(invocation)
        } else {
            process(.success(invocation))
        }
    }

    private func process(_ result: Result<Invocation, ProtocolError>) {
        switch state {
        case .inBatch(var batch):
            if case .success(let invocation) = result, case .endBatch = invocation.command.action {
                state = .open
                end(batch)
            } else {
                // Out of the state while it grows, so that its queue is not copied.
                state = .open
                batch.add(result)
                state = .inBatch(batch)
            }
        case .open:
            switch result {
            case .failure(let error): fail(error)
            case .success(let invocation): handle(invocation)
            }
        case .greeting, .closing:
            break
        }
    }

    private func handle(_ invocation: Invocation) {
        switch invocation.command.action {
        case .beginBatch:
            state = .inBatch(Batch())
        case .endBatch:
            fail(ProtocolError(.notInBatch, "'end' without 'begin'"))
        case .run, .deferred:
            dispatcher.dispatch(invocation, into: &output, for: self)
        }
    }

    private func end(_ batch: Batch) {
        dispatcher.run(batch, into: &output, for: self)
    }

    private func drainBacklog() {
        while !busy, isWritable, hasBacklog, !isClosing {
            let request = backlog[backlogStart]
            backlogStart += 1
            process(request)
        }
        if !hasBacklog {
            backlog.removeAll(keepingCapacity: backlog.capacity <= 64)
            backlogStart = 0
        }
        flush()
        closeIfIdle()
    }

    private func closeIfIdle() {
        if inputEnded, !busy, !hasBacklog, !isClosing { closeAfterReplies() }
    }

    // MARK: output

    /// Written before the read ends once there are many, so that the writability,
    /// checked before each request, counts them.
    private func writeIfMany() {
        if replies.lines.count >= Self.chunkSize { flush() }
    }

    /// Hands the gathered replies to the transport.
    private func flush() {
        guard !replies.isEmpty else { return }
        // A closing connection's transport sends only what it was given before.
        if !isClosing { replies.lines.bytes.withUnsafeBytes { transport.write($0) } }
        replies.lines.truncate(to: 0)
        checkWritability()
    }

    private func checkWritability() {
        guard isWritable, !isClosing, transport.queuedBytes > Self.highWaterMark else { return }
        isWritable = false
        transport.stopReading()
        onWritabilityChanged?(false)
    }

    /// Ends the connection once every reply given so far is sent.
    private func closeAfterReplies() {
        flush()
        state = .closing
        transport.shutdown()
    }

    /// Sends one event group's lines. Returns false, having closed the connection,
    /// when they would take its unsent bytes past ``subscriberLimit``.
    func send(_ lines: UnsafeRawBufferPointer) -> Bool {
        guard !isClosing else { return false }
        flush()
        guard transport.queuedBytes + heldEvents.count + lines.count <= Self.subscriberLimit else {
            close()
            return false
        }
        if isHolding {
            heldEvents.append(contentsOf: lines)
            return true
        }
        transport.write(lines)
        checkWritability()
        return true
    }
}

/// The answers of the requests it dispatches, written in order among its replies.
extension ClientConnection: Requester {
    /// A command writes its lines straight after the replies before it; if it fails,
    /// they are cut off again and only its error is left.
    @inline(__always)
    func lendReplies(to output: inout CommandOutput) {
        swap(&output.reply, &replies.lines)
        lentAt = output.reply.count
    }

    @inline(__always)
    func takeBackReplies(from output: inout CommandOutput, failed: Bool) {
        if failed, let lentAt {
            output.reply.truncate(to: lentAt)
            self.lentAt = nil
        }
        swap(&output.reply, &replies.lines)
    }

    /// `inout` only so that the connection's output is read in place rather than
    /// copied, at a retain and a release per array in it.
    func answer(_ output: inout CommandOutput) {
        lentAt = nil
        // Lines of a command that wrote elsewhere (a batch, a deferred command); an
        // ordinary command has written into `replies` already.
        if !output.reply.isEmpty {
            // Taken rather than copied when nothing is before it: a reload's reply may
            // be megabytes.
            if replies.lines.isEmpty {
                swap(&replies.lines, &output.reply)
            } else {
                replies.lines.append(contentsOf: output.reply)
            }
        }
        replies.ok()
        writeIfMany()
        // A subscriber reads its reply before the events its command caused.
        if output.hasEvents, isSubscribed { flush() }
        guard !isClosing else { return }
        if let topics = output.subscribe {
            service.events.subscribe(self, topics: topics)
            isSubscribed = true
        }
        if output.closeConnection { closeAfterReplies() }
    }

    /// Subscribers and other clients see each group open on its "Loading…" row, then
    /// that row replaced when the output comes, each as a change of its own;
    /// meanwhile this connection's later requests, and the events for it, wait
    /// behind the reply, in order.
    func hold(_ output: borrowing CommandOutput) {
        // The command's own records stay; its change records are told anew.
        heldLines = RecordWriter()
        if let start = lentAt {
            let changesAt = output.changeRecordsStart ?? replies.lines.count
            heldLines.append(line: replies.lines.bytes[start..<changesAt])
            replies.lines.truncate(to: start)
            lentAt = nil
        } else {
            let changesAt = output.changeRecordsStart ?? output.reply.count
            heldLines.append(line: output.reply.bytes[..<changesAt])
        }
        busy = true
        isHolding = true
        flush()
    }

    func answerHeld(_ change: Change, afterWaiting: Bool) {
        var events = EventGroup(keepsRecords: false)
        ChangeRecord.write(
            change, in: service.model, spliceTopics: .expansion, to: &heldLines, events: &events)
        replies.lines.append(contentsOf: heldLines)
        heldLines = RecordWriter()
        replies.ok()
        isHolding = false
        busy = false
        flush()
        if !heldEvents.isEmpty {
            let held = heldEvents
            heldEvents = []
            _ = held.withUnsafeBytes { send($0) }
        }
        if afterWaiting { drainBacklog() }
    }

    /// Answers a request with its error.
    func fail(_ error: ProtocolError) {
        lentAt = nil
        replies.error(error)
        writeIfMany()
    }

    func suspend() { busy = true }

    func resume(afterWaiting: Bool) {
        // A deferred command's reply may itself be held for children.
        if !isHolding { busy = false }
        if afterWaiting {
            flush()
            drainBacklog()
        }
    }
}
