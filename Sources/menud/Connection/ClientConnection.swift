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
    /// pass them drops it: a subscriber that stops reading never slows the daemon.
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
    private let daemon: MenuService
    /// The daemon's, held here too: reached through ``daemon`` it was retained and
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

    init(transport: any ConnectionTransport, state: MenuService) {
        self.transport = transport
        self.daemon = state
        self.commands = state.commands
    }

    /// The event hub holds its subscribers unowned: one let go of without a close
    /// leaves it here.
    deinit {
        if isSubscribed { daemon.events.unsubscribe(self) }
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
            daemon.events.unsubscribe(self)
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
        case .run:
            output.reset(listening: daemon.events.hasSubscribers)
            run(invocation, into: &output)
        case .deferred(let body):
            reply(later: body(invocation, daemon))
        }
    }

    /// Runs an ordinary command and answers it. The command writes its lines straight
    /// after the replies before it; if it fails, they are cut off again and only its
    /// error is left.
    @inline(__always)
    private func run(_ invocation: Invocation, into output: inout CommandOutput) {
        swap(&output.reply, &replies.lines)
        let mark = output.reply.count
        do throws(ProtocolError) {
            try invocation.command.body(invocation, daemon, &output)
        } catch {
            output.reply.truncate(to: mark)
            swap(&output.reply, &replies.lines)
            fail(error)
            return
        }
        swap(&output.reply, &replies.lines)
        finish(&output, writtenFrom: mark)
    }

    private func end(_ batch: Batch) {
        output.reset(listening: daemon.events.hasSubscribers)
        switch batch.run(in: daemon, into: &output) {
        case .success: finish(&output)
        case .failure(let error): fail(error)
        }
    }

    /// Waits for `completion`, holding back this connection's later requests
    /// meanwhile. What the command did is committed even if the client has gone.
    private func reply(later completion: Completion<CommandOutput>) {
        busy = true
        // One that is done already (`save` with `--no-state`) answers in line, among
        // the requests of the read being handled.
        var waited = false
        completion.whenComplete { result in
            switch result {
            case .success(var output): self.finish(&output)
            case .failure(let error as ProtocolError): self.fail(error)
            case .failure(let error): self.fail(ProtocolError(.internal, "\(error)"))
            }
            self.busy = false
            if waited {
                self.flush()
                self.drainBacklog()
            }
        }
        waited = true
    }

    /// Answers a command that succeeded, then tells the subscribers and subscribes
    /// this connection if the command asked for it. `start`: where the command's
    /// lines begin in ``replies``, when it wrote them there rather than in its output.
    /// `inout` only so that the connection's output is read in place
    /// rather than copied, at a retain and a release per array in it.
    private func finish(_ output: inout CommandOutput, writtenFrom start: Int? = nil) {
        if output.hasChanges {
            let opened = daemon.unloadedGroups(openedBy: output.changes)
            if !opened.isEmpty {
                hold(output, writtenFrom: start, until: opened)
                return
            }
        }
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
        // Most commands change nothing and tell nobody: no call for them.
        if output.hasEvents || output.hasChanges { daemon.commit(output) }
        guard !isClosing else { return }
        if let topics = output.subscribe {
            daemon.events.subscribe(self, topics: topics)
            isSubscribed = true
        }
        if output.closeConnection { closeAfterReplies() }
    }

    /// Answers a command that opened children-cmd groups without children once their
    /// commands have run, with their rows in the reply, as docs/config.md promises.
    /// The command has run, once, and its change is committed at once: subscribers
    /// and other clients see each group open on its "Loading…" row, then that row
    /// replaced when the output comes, each as a change of its own. The reply tells
    /// the change from the rows before the command to the rows when it is answered,
    /// as one. Meanwhile this connection's later requests, and the events for it,
    /// wait behind the reply, in order.
    private func hold(_ output: CommandOutput, writtenFrom start: Int?, until groups: [String]) {
        // The command's own records stay; its change records are told anew.
        let changesAt = output.changeRecordsStart ?? output.reply.count
        var lines = RecordWriter()
        if let start {
            lines.append(line: replies.lines.bytes[start..<changesAt])
            replies.lines.truncate(to: start)
        } else {
            lines.append(line: output.reply.bytes[..<changesAt])
        }
        busy = true
        isHolding = true
        flush()
        var waited = false
        daemon.commitLoadingChildren(output, groups).whenComplete { result in
            let change = (try? result.get()) ?? Change()
            var events = EventGroup(keepsRecords: false)
            ChangeRecord.write(
                change, in: self.daemon.model, spliceTopics: .expansion, to: &lines, events: &events)
            self.replies.lines.append(contentsOf: lines)
            self.replies.ok()
            self.isHolding = false
            self.busy = false
            self.flush()
            if !self.heldEvents.isEmpty {
                let held = self.heldEvents
                self.heldEvents = []
                _ = held.withUnsafeBytes { self.send($0) }
            }
            if waited { self.drainBacklog() }
        }
        waited = true
    }

    /// Answers a request with its error.
    private func fail(_ error: ProtocolError) {
        replies.error(error)
        writeIfMany()
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
