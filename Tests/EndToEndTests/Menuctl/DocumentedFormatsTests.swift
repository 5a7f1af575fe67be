import Foundation
import TestSupport
import Testing

/// Every format `--format` takes is described where a user looks for it: in its own
/// help, and in the table of docs/integrations.md, "Rendering"; and the table names
/// no format menuctl does not have.
@Suite(.ownThread) struct DocumentedFormatsTests {
    @Test func helpAndIntegrationsDescribeEveryFormat() throws {
        let help = try run(TestPaths.menuctl, ["render", "--help"]).stdout
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let values = try #require(help.firstMatch(of: /\(values: ([^)]*)\)/)?.1, "\(help)")
        let formats = values.split(separator: ", ").map(String.init)
        #expect(formats.contains("openbox") && formats.contains("jgmenu"), "\(formats)")

        let doc = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/integrations.md"), encoding: .utf8)
        let section = try #require(doc.firstRange(of: "## Rendering").map { doc[$0.lowerBound...] })
        let table = section.split(separator: "\n\n").first { $0.hasPrefix("| Format |") }
        let documented = try #require(table, "the Rendering table").split(separator: "\n").dropFirst(2)
            .compactMap {
                $0.firstMatch(of: /^\| `([a-z0-9]+)` \|/).map { String($0.1) }
            }
        #expect(documented == formats, "docs/integrations.md, Rendering: \(documented); --format: \(formats)")
        for format in formats {
            #expect(help.contains(" \(format): "), "render --help describes \(format)")
        }
    }
}
