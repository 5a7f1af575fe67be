import ArgumentParser

/// `menuctl render`: the menu once, in a format for a bar, a launcher or a script.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Print the menu once in a format for a bar, a launcher or a script.",
        discussion: "The focus shown is the daemon's focus cursor of PATH's top-level menu (see nav).")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: FormatOptions
    @Argument(help: "Only the subtree at this path.", completion: PathCompletion.paths(.any)) var path:
        String?

    func validate() throws {
        if global.raw {
            throw OutputStyle.raw.refused(
                by: "render", because: "it prints a format; menuctl --raw rows gives the records")
        }
        if global.json && output.isGiven {
            throw ValidationError("--json is --format json; give one of --json, --format and --template")
        }
        try output.checkCommands(MenuctlInvocation(global: global))
    }

    func run() throws {
        let invocation = MenuctlInvocation(global: global)
        let fallback: any ViewFormat = global.json ? JSONFormat() : TreeFormat()
        let format = output.makeFormat(invocation: invocation, fallback: fallback)
        let view = try MenuView.fetch(path, everyNode: format.showsEveryNode, options: global)
        print(format.render(view))
    }
}
