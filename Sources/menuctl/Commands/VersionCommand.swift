import ArgumentParser

struct VersionCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "version", abstract: "Show the protocol and daemon versions.")
    static let protocolName = "version"
    @OptionGroup var global: GlobalOptions
    var protocolArguments: [String] { [] }
}
