import ArgumentParser
import MenuClient
import MenuCore

#if canImport(Glibc)
    import Glibc
#endif

/// `menuctl watch`: the current state at once, then again after every change, one
/// line each, flushed at once: what a waybar `exec` module or an eww `deflisten`
/// runs. It subscribes and asks for the tree on the same connection, so no change
/// can fall between the first state and the first event.
struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the menu's state now and after every change, one line each.",
        discussion: """
            Reconnects (retrying every half second) when the daemon is not there or restarts, \
            printing the state again once it is back; with --no-reconnect it exits with status 3 instead.
            """)
    @OptionGroup var global: GlobalOptions
    @Flag(help: "Exit when the daemon goes away instead of waiting for it to come back.")
    var noReconnect = false

    func run() throws {
        // It runs until killed: make sure it can be, whatever mask its parent left.
        var termination = sigset_t()
        sigemptyset(&termination)
        for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&termination, signal) }
        sigprocmask(SIG_UNBLOCK, &termination, nil)
        let path = DaemonSession.socketPath(global)
        let view = WatchView(json: global.json)
        while true {
            do {
                try follow(path, view)
            } catch {
                if noReconnect || error.status != ExitStatus.unreachable { throw error }
            }
            usleep(500_000)
        }
    }

    /// One connection's worth: returns only by throwing, when the daemon goes away.
    private func follow(_ path: String, _ view: WatchView) throws(ClientFailure) {
        let connection: UnixSocketConnection
        do {
            connection = try UnixSocketConnection.connect(path: path)
        } catch {
            throw .unreachable(path, error.description)
        }
        do {
            guard try connection.readGreeting().hasPrefix("OK MENUD ") else {
                throw ClientFailure.unreachable(path, "not a menud socket")
            }
            try connection.send("subscribe\ntree\n")
            guard try connection.readReply().isOK else {
                throw ClientFailure(status: ExitStatus.daemonError, message: "subscribe refused")
            }
            // Each `tree` reply is one state; each group's `end` asks for the next.
            var rows: [RowRecord] = []
            while let line = try connection.readLine() {
                if line.hasPrefix("event\t") {
                    if line.hasSuffix("\tend") { try connection.send("tree\n") }
                } else if line == "OK" {
                    printLine(view.render(rows))
                    rows = []
                } else if let row = RowRecord(fields: ProtocolFields.fields(of: line)) {
                    rows.append(row)
                }
            }
            throw ClientFailure.unreachable(path, "the daemon closed the connection")
        } catch let failure as ClientFailure {
            throw failure
        } catch {
            throw .unreachable(path, "\(error)")
        }
    }

    /// Writes straight to descriptor 1: a pipe to a bar must get each line now, not
    /// when a stdio buffer fills.
    private func printLine(_ text: String) {
        let bytes = Array((text + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(1, $0.baseAddress! + offset, $0.count - offset) }
            if n <= 0 {
                if n < 0, errno == EINTR { continue }
                Glibc.exit(ExitStatus.ok)  // nobody reads any more
            }
            offset += n
        }
    }
}

/// What `watch` prints for one state of the menu: the single place that decides, so
/// that other formats (a bar's JSON, a launcher's lines) swap this function alone.
/// It gets every node (`tree`), hidden ones with no row index.
struct WatchView {
    var json: Bool

    func render(_ nodes: [RowRecord]) -> String {
        let visible = nodes.filter { $0.index != nil }
        if json { return RowJSON.array(visible) }
        return visible.map { row in
            row.value.isEmpty || row.title.contains(row.value) ? row.title : "\(row.title) [\(row.value)]"
        }.joined(separator: " | ")
    }
}
