import ArgumentParser

/// The three commands that open or close one node share their arguments.
struct ExpansionArguments: ParsableArguments {
    @Argument(help: "The group or choice's path.", completion: PathCompletion.paths(.expandable)) var path:
        String
    @Flag(help: "Also every group below it.") var recursive = false
}
