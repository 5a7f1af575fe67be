import Foundation
import MenuProtocol
import TestSupport
import Testing

/// One table of commands (MenuProtocol's `CommandCatalog`) for both programs: the
/// daemon's `commands` and `help` answer from it, and menuctl's subcommands that send
/// a protocol command show its help. A command added to one side only fails here.
@Suite(.ownThread) struct CommandCatalogTests {
    /// Protocol commands that menuctl reaches otherwise: `help` through `commands`,
    /// `subscribe` through `watch`, `begin` and `end` through `batch`, `close` at the
    /// end of every session.
    static let withoutASubcommand: Set<String> = ["help", "commands", "close", "subscribe", "begin", "end"]

    @Test func theDaemonAnswersFromTheCatalog() async throws {
        try await withDaemon { daemon in
            let names = try daemon.request("commands").lines.map { ProtocolFields.fields(of: $0) }
            #expect(names.map { $0.last ?? "" }.sorted() == CommandCatalog.all.map(\.name).sorted())
            for spec in CommandCatalog.all {
                let help = try daemon.request("help \(spec.name)").lines.map { ProtocolFields.fields(of: $0) }
                let flags = spec.flags.isEmpty ? "" : " [\(spec.flags.joined(separator: "|"))]"
                #expect(help == [["help", spec.name, spec.usageLine + flags, spec.summary]])
            }
        }
    }

    @Test func menuctlShowsTheCatalogsHelp() throws {
        let listed = try run(TestPaths.menuctl, ["--help"]).stdout
        let subcommands = Set(
            listed.components(separatedBy: "SUBCOMMANDS:").last!.split(separator: "\n").compactMap { line in
                line.hasPrefix("  ") && !line.hasPrefix("   ")
                    ? line.split(separator: " ").first.map(String.init) : nil
            })
        for spec in CommandCatalog.all where !Self.withoutASubcommand.contains(spec.name) {
            #expect(subcommands.contains(spec.name), "menuctl has no subcommand for \(spec.name)")
            let help = try run(TestPaths.menuctl, [spec.name, "--help"]).stdout
            let overview = help.components(separatedBy: "\n\n").first ?? ""
            let words = overview.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(words == "OVERVIEW: \(spec.summary)", "menuctl \(spec.name)")
        }
    }
}
