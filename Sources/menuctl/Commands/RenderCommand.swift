import ArgumentParser

/// `menuctl render`: the menu once, in a format for a bar, a launcher or a script.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Print the menu once in a format for a bar, a launcher or a script.",
        discussion: "The focus shown is the daemon's focus cursor of PATH's top-level menu (see nav).")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: FormatOptions
    @Argument(help: "Only the subtree at this path.") var path: String?

    func run() throws {
        let view = try MenuView.fetch(path, options: global)
        print(output.makeFormat(invocation: MenuctlInvocation(global: global)).render(view))
    }
}
