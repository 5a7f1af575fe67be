import ArgumentParser
import MenuClient
import MenuSystem

/// Options every subcommand takes, before or after its name.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The daemon's socket.",
            discussion: DefaultSocketPath.help,
            valueName: "path"))
    var socket: String?

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Print JSON instead of text.",
            discussion: """
                Every command that prints something takes it; for one that prints nothing (ping, save) or has \
                a form of its own (rofi, pick, send) it is a usage error.
                """))
    var json = false

    @Flag(
        name: .long,
        help: "Print the daemon's reply records unchanged, tab-separated, as docs/protocol.md describes them."
    )
    var raw = false

    var style: OutputStyle { json ? .json : raw ? .raw : .text }

    func validate() throws {
        if json && raw { throw ValidationError("--json and --raw are two forms of the output; give one") }
    }

    /// For a command with one form of output, which `--json` and `--raw` would not
    /// change: they are refused rather than ignored.
    func onlyText(_ command: String, because reason: String) throws {
        if style != .text { throw style.refused(by: command, because: reason) }
    }
}
