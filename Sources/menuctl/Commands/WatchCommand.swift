import ArgumentParser
import MenuClient
import MenuProtocol
import MenuSystem

#if canImport(Glibc)
    import Glibc
#endif

/// `menuctl watch`: the current state at once, then again after every change, each
/// flushed at once: what a waybar `exec` module, a polybar `tail` script or an eww
/// `deflisten` runs. It subscribes and asks for the rows and the focus on the same
/// connection, so no change can fall between the first state and the first event,
/// and prints through the very formats `render` uses.
struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print the menu now and again after every change.",
        discussion: """
            Without --format or --template: a line per state, the visible titles joined by ' | ' \
            (with --json: the rows as a JSON array). With them: the same output as render, \
            once per change (a change of the focus included); tree, lines and templates follow \
            each state with an empty line, yambar's tag sets end with theirs, i3blocks prints only \
            the full_text line (a persistent block's new text), and the other formats are one line. \
            Reconnects (retrying every half second) when the daemon is not there or restarts, \
            printing the state again once it is back; with --no-reconnect it exits with status 3 instead. \
            While it waits it says so once on stderr, and the bar formats and json print a state \
            that says so (waybar: class disconnected). It exits when its reader closes standard output.
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: FormatOptions
    @Flag(help: "Exit when the daemon goes away instead of waiting for it to come back.")
    var noReconnect = false
    @Argument(help: "Only the subtree at this path.", completion: PathCompletion.paths(.any)) var path:
        String?

    /// The topics that change what a view shows: an `activated` group alone (a
    /// command started) does not.
    static let subscription = "subscribe expansion value config focus\n"

    func validate() throws {
        if global.raw {
            throw OutputStyle.raw.refused(
                by: "watch", because: "it prints states, not records; see docs/protocol.md, Events, for those"
            )
        }
        if global.json && output.isGiven {
            throw ValidationError(
                "--json is watch's own form; with --format or --template, use --format json")
        }
        if let format = output.format, format.isReadOnce {
            throw ValidationError(
                "\(format.rawValue) reads a menu once, when it opens: use menuctl render --format \(format.rawValue)"
            )
        }
    }

    func run() throws {
        // It runs until killed: make sure it can be, whatever mask its parent left.
        var termination = sigset_t()
        sigemptyset(&termination)
        for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&termination, signal) }
        sigprocmask(SIG_UNBLOCK, &termination, nil)
        let socket = DaemonSession.socketPath(global)
        let format = output.makeFormat(
            invocation: MenuctlInvocation(global: global), fallback: WatchLineFormat(json: global.json))
        // Said once per absence, not at every retry: a bar's log is read by people.
        var connected = true
        while true {
            do {
                try follow(socket, format) { connected = true }
            } catch {
                if noReconnect || error.status != ExitStatus.unreachable { throw error }
                if connected {
                    connected = false
                    printError("menuctl: \(error.message); waiting for it")
                    if let text = format.disconnectedRender(socket: socket) { printLine(text) }
                }
            }
            Self.pauseUnlessReaderLeft()
        }
    }

    /// Half a second between attempts to reach the daemon, cut short when the reader
    /// of standard output has gone: a bar that exits while menud is down must not leave
    /// its watch retrying forever.
    private static func pauseUnlessReaderLeft() {
        var output = pollfd(fd: 1, events: 0, revents: 0)
        if poll(&output, 1, 500) > 0, output.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 {
            Glibc.exit(ExitStatus.ok)
        }
    }

    /// One connection's worth: returns only by throwing, when the daemon goes away.
    /// `connected` runs once the daemon has answered.
    private func follow(_ socket: String, _ format: any ViewFormat, connected: () -> Void)
        throws(ClientFailure)
    {
        let connection: UnixSocketConnection
        do {
            connection = try UnixSocketConnection.connectToOwnDaemon(path: socket)
        } catch let failure as UnixSocketConnection.Failure {
            throw .cannotConnect(socket, failure)
        } catch {
            throw .unreachable(socket, "\(error)")
        }
        do {
            guard try connection.readGreeting().hasPrefix("OK MENUD ") else {
                throw ClientFailure.unreachable(socket, "not a menud socket")
            }
            try connection.send(Self.subscription)
            guard try connection.readReply().isOK else {
                throw ClientFailure(status: ExitStatus.daemonError, message: "subscribe refused")
            }
            connected()
            // Each state is a `rows` reply then a `focused` reply; each group's `end`
            // asks for the next. Event lines only come between replies.
            let fetch = MenuView.requests(path).map { $0 + "\n" }.joined()
            try connection.send(fetch)
            var replies: [ProtocolReply] = []
            var reader = ReplyReader()
            while true {
                guard try connection.waitForLine(orHangUpOf: 1) else { Glibc.exit(ExitStatus.ok) }
                guard let line = try connection.readLine() else { break }
                if line.hasPrefix("event\t") {
                    let fields = ProtocolFields.fields(of: line)
                    if fields.count == 3 && fields[2] == "end" { try connection.send(fetch) }
                } else if let reply = reader.read(line) {
                    guard reply.isOK else {
                        throw ClientFailure(
                            status: ExitStatus.daemonError, message: DaemonSession.describe(line))
                    }
                    replies.append(reply)
                    if replies.count == 2 {
                        printLine(
                            format.watchRender(MenuView(replies: replies[0], focus: replies[1], scope: path)))
                        replies = []
                    }
                }
            }
            throw ClientFailure.unreachable(socket, "the daemon closed the connection")
        } catch let failure as ClientFailure {
            throw failure
        } catch {
            throw .unreachable(socket, "\(error)")
        }
    }

    /// Writes straight to descriptor 1: a pipe to a bar must get each line now, not
    /// when a stdio buffer fills.
    private func printLine(_ text: String) {
        // Nobody reads any more.
        if WriteAll.write(1, Array((text + "\n").utf8)) != nil { Glibc.exit(ExitStatus.ok) }
    }
}
