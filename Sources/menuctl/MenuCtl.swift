import ArgumentParser

#if canImport(Glibc)
    import Glibc
#endif

/// `menuctl`: send one protocol command to menud and print the answer for a human, a
/// script (`--json`) or a pipe.
struct MenuCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "menuctl",
        abstract: "Control menud, the accordion menu daemon.",
        usage: "menuctl [--socket <path>] [--json] <subcommand> [<arguments>...]",
        discussion: """
            Exit status: 0 when the daemon answered OK, 1 when it answered ERR (the message \
            goes to stderr), 2 for a usage error, 3 when the daemon cannot be reached.
            """,
        subcommands: [
            RowsCommand.self, TreeCommand.self, GetCommand.self, RowCommand.self,
            ExpandCommand.self, CollapseCommand.self, ToggleCommand.self, ExpandAllCommand.self,
            CollapseAllCommand.self, ExpandToCommand.self,
            SetCommand.self, ActivateCommand.self, BatchCommand.self, SaveCommand.self, ReloadCommand.self,
            WatchCommand.self,
            RenderCommand.self, NavCommand.self, FocusCommand.self, FocusedCommand.self, RofiCommand.self,
            PickCommand.self,
            PingCommand.self, VersionCommand.self, CommandsCommand.self, SendCommand.self,
        ])
}

/// Exit statuses are part of menuctl's interface: scripts branch on them.
enum ExitStatus {
    static let ok: Int32 = 0
    static let daemonError: Int32 = 1
    static let usage: Int32 = 2
    static let unreachable: Int32 = 3
}

@main
enum Main {
    static func main() {
        do {
            var command = try MenuCtl.parseAsRoot(
                movingGlobalOptions(Array(CommandLine.arguments.dropFirst())))
            try command.run()
        } catch let failure as ClientFailure {
            printError("menuctl: \(failure.message)")
            exit(failure.status)
        } catch {
            // Help, --version and completion scripts arrive as "errors" too, some from
            // parsing and some (`menuctl help`) from running; they exit 0.
            if MenuCtl.exitCode(for: error) == .success {
                print(MenuCtl.fullMessage(for: error))
                exit(ExitStatus.ok)
            }
            printError(MenuCtl.fullMessage(for: error))
            exit(ExitStatus.usage)
        }
    }
}

/// `menuctl --socket P --json rows` is the documented form, but ArgumentParser only
/// gives a subcommand the options written after its name. Moving the leading global
/// options behind the subcommand name keeps one declaration (``GlobalOptions``) for both.
func movingGlobalOptions(_ arguments: [String]) -> [String] {
    var leading: [String] = []
    var rest = arguments[...]
    while let first = rest.first {
        if first == "--json" || first.hasPrefix("--socket=") {
            leading.append(first)
            rest = rest.dropFirst()
        } else if first == "--socket", rest.count >= 2 {
            leading += rest.prefix(2)
            rest = rest.dropFirst(2)
        } else {
            break
        }
    }
    guard !leading.isEmpty, let subcommand = rest.first else { return arguments }
    return [subcommand] + leading + rest.dropFirst()
}

/// Writes to descriptor 2 directly: Glibc's `stderr` is a global that Swift 6 will
/// not let us touch.
func printError(_ message: String) {
    let bytes = Array((message + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
        if n <= 0 { return }
        offset += n
    }
}
