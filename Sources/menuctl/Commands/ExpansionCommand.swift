/// expand, collapse and toggle: one group's path and `--recursive`, the same request
/// shape, printed as every change is.
protocol ExpansionCommand: ChangeCommand {
    var node: ExpansionArguments { get }
}

extension ExpansionCommand {
    var protocolFlags: [String] { node.recursive ? ["--recursive"] : [] }
    var subject: String? { node.path }
    var protocolArguments: [String] { [node.path] }
}
