import ArgumentParser

/// The arguments of the three commands that open or close one node (``ExpansionCommand``).
struct ExpansionArguments: ParsableArguments {
    @Argument(help: "The group or choice's path.", completion: PathCompletion.paths(.expandable)) var path:
        String
    @Flag(help: "Also every group below it.") var recursive = false
}
