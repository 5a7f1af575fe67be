import ArgumentParser
import MenuProtocol

struct VersionCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "version", abstract: CommandCatalog.spec(protocolName).summary)
    static let protocolName = CommandName.version
    @OptionGroup var global: GlobalOptions
    var protocolArguments: [String] { [] }

    func text(_ reply: ProtocolReply, followUps: [ProtocolReply]) -> [String] {
        VersionReport(reply: reply).textLines
    }

    func json(_ reply: ProtocolReply, followUps: [ProtocolReply]) -> String {
        VersionReport(reply: reply).json
    }
}
