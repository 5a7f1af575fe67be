import ArgumentParser

/// `menuctl`: send one protocol command to menud and print the answer for a human, a
/// script (`--json`) or a pipe.
struct MenuCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "menuctl",
        abstract: "Control menud, the accordion menu daemon.",
        usage: """
            menuctl [--socket <path>] [--json | --raw] <subcommand> [<arguments>...]
            menuctl [--socket <path>] [--json] --version
            """,
        discussion: """
            Output: text for a person by default; --json for a program; --raw for the protocol's \
            records unchanged (docs/protocol.md). Exit status: 0 when the daemon answered OK, 1 when it answered ERR (the message \
            goes to stderr), 2 for a usage error, 3 when the daemon cannot be reached.
            """,
        subcommands: [
            RowsCommand.self, TreeCommand.self, GetCommand.self, RowCommand.self, FindCommand.self,
            ExpandCommand.self, CollapseCommand.self, ToggleCommand.self, ExpandAllCommand.self,
            CollapseAllCommand.self, ExpandToCommand.self,
            SetCommand.self, StepCommand.self, ActivateCommand.self, BatchCommand.self, SaveCommand.self,
            RefreshCommand.self,
            ReloadCommand.self,
            WatchCommand.self,
            RenderCommand.self, NavCommand.self, FocusCommand.self, OpenCommand.self, FocusedCommand.self,
            RofiCommand.self,
            PickCommand.self,
            PingCommand.self, VersionCommand.self, CommandsCommand.self, SendCommand.self,
        ])
    @OptionGroup var global: GlobalOptions
    @Flag(
        name: .long,
        help: "Show menuctl's version and the protocol of the daemon it reaches (or that none is there).")
    var version = false

    func validate() throws {
        if version && global.raw {
            throw OutputStyle.raw.refused(by: "--version", because: "menuctl's own version is no record")
        }
    }

    /// Only `--version` reaches here: without a subcommand there is nothing else to do.
    func run() throws {
        guard version else { throw CleanExit.helpRequest(self) }
        let report: VersionReport
        do {
            let reply = try DaemonSession.send(["version"], options: global)
            report = VersionReport(reply: reply)
        } catch {
            report = VersionReport(unreachable: error.message)
        }
        if global.json {
            print(report.json)
        } else {
            for line in report.textLines { print(line) }
        }
    }
}
