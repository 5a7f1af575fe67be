import MenuClient
import MenuProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// The popup's one connection to menud: it subscribes to every change, sends the
/// popup's requests in order, and hands back each reply and each complete event
/// group. It never blocks: whoever owns it (menud-popup's GLib loop) calls
/// ``readAvailable()`` when ``descriptor`` is readable.
///
/// The popup is a client like menuctl, never a second model: what it draws comes
/// from the replies and events here, so the bar, the tray and the launchers see its
/// changes at once and it sees theirs.
public final class PopupSession {
    /// Why the session cannot go on: no daemon, a refused greeting, a closed socket.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    private let connection: UnixSocketConnection
    /// The replies still to come, in the order the requests went out.
    private var waiting: [(ProtocolReply) -> Void] = []
    private var waitingHead = 0
    private var reply = ReplyReader()
    /// The records of the event group under way.
    private var group: [[String]] = []

    /// Called with each complete event group's records (without `event SEQ`), after
    /// its `end`: the daemon's state changed, whoever changed it.
    public var onEvents: ([[String]]) -> Void = { _ in }

    public var descriptor: Int32 { connection.descriptor }

    /// Connects to the daemon at `socket`, reads its greeting and subscribes. Waits
    /// at most `seconds` for the daemon to answer, so that a hung daemon is an error
    /// and not a hang.
    public init(socket: String, seconds: Int = 1) throws(Failure) {
        do {
            connection = try UnixSocketConnection.connectToOwnDaemon(path: socket)
        } catch let failure as UnixSocketConnection.Failure where failure.isNotListening {
            throw Failure(description: "menud is not running (no daemon listens on \(socket))")
        } catch {
            throw Failure(description: "cannot connect to \(socket): \(error)")
        }
        connection.setReceiveTimeout(seconds: seconds)
        connection.setSendTimeout(seconds: seconds)
        do {
            let greeting = try connection.readGreeting()
            guard greeting.hasPrefix("OK MENUD ") else {
                throw Failure(description: "menud refused the connection: \(greeting)")
            }
            try connection.send("subscribe\n")
            let subscribed = try connection.readReply()
            guard subscribed.isOK else {
                throw Failure(description: "menud refused the subscription: \(subscribed.terminator)")
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "menud did not answer on \(socket): \(error)")
        }
    }

    /// Sends the request made of `words` (each quoted as it needs); `done` gets its
    /// reply, after the replies to every earlier request.
    public func send(_ words: [String], done: @escaping (ProtocolReply) -> Void = { _ in }) throws(Failure) {
        let line = words.map(ProtocolWords.quote).joined(separator: " ") + "\n"
        do {
            try connection.send(line)
        } catch {
            throw Failure(description: "menud closed the connection: \(error)")
        }
        waiting.append(done)
    }

    /// Reads what has come and hands out the replies and event groups it completes.
    /// Throws once the daemon has closed the connection.
    public func readAvailable() throws(Failure) {
        let lines: [String]?
        do {
            lines = try connection.readAvailableLines()
        } catch {
            throw Failure(description: "the connection to menud failed: \(error)")
        }
        guard let lines else { throw Failure(description: "menud closed the connection") }
        for line in lines { take(line) }
    }

    private func take(_ line: String) {
        // Event lines come only between replies, and no reply's record is `event`.
        if line.hasPrefix("event\t") {
            var fields = ProtocolFields.fields(of: line)
            fields.removeFirst(min(2, fields.count))
            if fields.first == "end" {
                let records = group
                group = []
                onEvents(records)
            } else {
                group.append(fields)
            }
            return
        }
        guard let whole = reply.read(line) else { return }
        guard waitingHead < waiting.count else { return }
        let done = waiting[waitingHead]
        waitingHead += 1
        if waitingHead == waiting.count {
            waiting.removeAll(keepingCapacity: true)
            waitingHead = 0
        }
        done(whole)
    }
}
