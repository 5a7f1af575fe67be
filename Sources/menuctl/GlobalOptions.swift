import ArgumentParser

/// Options every subcommand takes, before or after its name.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The daemon's socket.",
            discussion:
                "Default: $MENUD_SOCKET, else $XDG_RUNTIME_DIR/menud/socket, else /tmp/menud-$UID/socket.",
            valueName: "path"))
    var socket: String?

    @Flag(name: .long, help: "Print rows as JSON (rows, tree, get, row).")
    var json = false
}
