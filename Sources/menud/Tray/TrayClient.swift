import MenuProtocol

/// The tray as one more client of the daemon: its clicks and openings are protocol
/// requests on a ``ClientConnection`` of their own, and it hears every change as a
/// subscriber. So a tray action takes exactly the path a socket client's does
/// (children loaded first, batches, events, the state file, `on-change`), and every
/// client sees one state. The connection lives in the process, on a
/// ``TrayTransport``; nothing goes through the socket.
final class TrayClient {
    private let transport = TrayTransport()
    private var connection: ClientConnection?
    /// Bytes of a line not yet ended.
    private var partial: [UInt8] = []
    private var greeted = false
    private var reader = ReplyReader()
    /// Who waits for each reply, in the order the requests were sent.
    private var waiting: [(ProtocolReply) -> Void] = []
    private var waitingStart = 0
    /// Requests made while the connection was handling one: it takes them after.
    private var outbox: [String] = []
    private var handling = false
    /// Told at the end of each event group, with its sequence number and the
    /// top-level menus it changed (nil for maybe all: a reload, or rows that moved
    /// without a path named): one command, batch, reload or load, from any client.
    var onEventGroup: ((UInt64, Set<String>?) -> Void)?
    /// The menus the group being read has named so far; nil once it may be all.
    private var touched: Set<String>? = []

    init(state: DaemonState) {
        let connection = ClientConnection(transport: transport, state: state)
        self.connection = connection
        transport.onBytes = { [unowned self] bytes in self.received(bytes) }
        transport.onClose = { [unowned self] in
            self.connection?.closed()
            self.connection = nil
        }
        connection.start()
    }

    /// Sends one request; `reply` hears its answer. Arguments are quoted as needed.
    func send(_ command: String, _ arguments: [String] = [], reply: @escaping (ProtocolReply) -> Void) {
        guard connection != nil, arguments.allSatisfy(ProtocolWords.canEncode) else {
            return reply(ProtocolReply(lines: [], terminator: "ERR bad-request the tray cannot send that"))
        }
        waiting.append(reply)
        outbox.append(ProtocolWords.request(command, arguments: arguments) + "\n")
        guard !handling else { return }
        handling = true
        defer { handling = false }
        while !outbox.isEmpty {
            let line = outbox.removeFirst()
            Array(line.utf8).withUnsafeBytes { connection?.received($0) }
        }
    }

    /// Ends the subscription and the connection.
    func close() {
        connection?.close()
        connection = nil
        let unanswered = waiting[waitingStart...]
        waiting = []
        waitingStart = 0
        for reply in unanswered {
            reply(ProtocolReply(lines: [], terminator: "ERR internal the tray closed"))
        }
    }

    private func received(_ bytes: UnsafeRawBufferPointer) {
        var start = 0
        for (i, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            partial.append(contentsOf: bytes[start..<i])
            start = i + 1
            let line = String(decoding: partial, as: UTF8.self)
            partial.removeAll(keepingCapacity: true)
            take(line)
        }
        partial.append(contentsOf: bytes[start...])
    }

    private func take(_ line: String) {
        guard greeted else {
            greeted = true
            return
        }
        if line.hasPrefix("event\t") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 3 else { return }
            switch fields[2] {
            case "end":
                // Splices alone (a group's children arriving) name no path.
                let menus = touched?.isEmpty == true ? nil : touched
                touched = []
                if let sequence = UInt64(fields[1]) { onEventGroup?(sequence, menus) }
            case "expansion" where fields.count >= 4, "value" where fields.count >= 4:
                touched?.insert(String(fields[3].prefix { $0 != "/" }))
            case "splice":
                break
            default:
                touched = nil
            }
            return
        }
        guard let reply = reader.read(line), waitingStart < waiting.count else { return }
        let waiter = waiting[waitingStart]
        waitingStart += 1
        if waitingStart == waiting.count {
            waiting.removeAll(keepingCapacity: true)
            waitingStart = 0
        }
        waiter(reply)
    }
}
