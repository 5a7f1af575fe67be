import Foundation
import MenuProtocol
import Testing

/// docs/protocol.md's command table says what the catalog says: the same commands,
/// and for each its arguments, flags and whether it may be batched. The catalog is
/// the one table; the docs' copy is checked against it, row by row.
@Suite struct CommandDocTests {
    struct DocRow: Equatable, CustomStringConvertible {
        var arguments: String
        var flags: String
        var batchable: String
        var description: String { "arguments \(arguments), flags \(flags), batchable \(batchable)" }
    }

    /// The rows of the table under "## Commands", by command name.
    static func docRows() throws -> [String: DocRow] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
        let section = try #require(text.range(of: "\n## Commands\n"))
        var rows: [String: DocRow] = [:]
        var inTable = false
        for line in text[section.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("| Command |") {
                inTable = true
                continue
            }
            guard inTable else { continue }
            guard line.hasPrefix("|") else { break }
            if line.hasPrefix("| ---") { continue }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 4 else { continue }
            let row = DocRow(arguments: cells[1], flags: cells[2], batchable: cells[3])
            // "`begin` … `end`" is one row for the two.
            for name in cells[0].split(separator: "`").map(String.init)
            where !name.contains(" ") && !name.isEmpty
                && name != "…"
            {
                rows[name] = row
            }
        }
        return rows
    }

    @Test func theDocsListEveryCommandOfTheCatalogAndNoOther() throws {
        let rows = try Self.docRows()
        #expect(Set(rows.keys) == Set(CommandCatalog.all.map(\.name)))
    }

    @Test func eachCommandsArgumentsFlagsAndBatchingAreTheCatalogs() throws {
        let rows = try Self.docRows()
        for spec in CommandCatalog.all where spec.name != "begin" && spec.name != "end" {
            let row = try #require(rows[spec.name], "\(spec.name) has no row in docs/protocol.md")
            // Each form of the usage in code, a comma between two.
            let forms = spec.usage.isEmpty ? [] : spec.usage.components(separatedBy: " | ")
            #expect(row.arguments == forms.map { "`\($0)`" }.joined(separator: ", "), "\(spec.name): \(row)")
            #expect(row.flags == spec.flags.map { "`\($0)`" }.joined(separator: ", "), "\(spec.name): \(row)")
            #expect(row.batchable == (spec.batchable ? "yes" : "no"), "\(spec.name): \(row)")
        }
    }
}
