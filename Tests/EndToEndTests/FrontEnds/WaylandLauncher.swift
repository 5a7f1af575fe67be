import Foundation
import TestSupport
import Testing

/// A dmenu-style Wayland launcher `menuctl pick` is documented with, and the command
/// line contrib/fuzzel/README.md gives for it: the tests run exactly that line, with
/// no config of the user's (the session's config folder is empty).
struct WaylandLauncher: CustomTestStringConvertible, Sendable {
    /// The program, and the name of its process.
    let program: String

    static let all = ["fuzzel", "wofi", "bemenu", "tofi"].map(WaylandLauncher.init)

    var testDescription: String { program }

    /// contrib's README, whose command lines the tests run: a `menuctl pick
    /// --launcher '…'` line each.
    static let readme = "contrib/fuzzel/README.md"
    /// docs/integrations.md, whose table gives the same command lines: a row each,
    /// `| PROGRAM VERSION | `COMMAND` | …`.
    static let integrations = "docs/integrations.md"

    /// The command line contrib's README gives this launcher: the `--launcher`
    /// argument of its first `menuctl pick --launcher '…'` line.
    func documentedForm() throws -> String {
        let head = "menuctl pick --launcher '"
        let (line, path) = try Self.line(in: Self.readme) { $0.hasPrefix(head + program + " ") }
        guard let end = line.lastIndex(of: "'"), end >= line.index(line.startIndex, offsetBy: head.count)
        else {
            throw TimedOut(description: "no closing quote in \(line) in \(path)")
        }
        return String(line[line.index(line.startIndex, offsetBy: head.count)..<end])
    }

    /// The command line of this launcher's row in docs/integrations.md's table.
    func tableForm() throws -> String {
        let (line, path) = try Self.line(in: Self.integrations) { $0.hasPrefix("| \(program) ") }
        let quoted = line.split(separator: "`", omittingEmptySubsequences: false)
        guard quoted.count >= 3 else {
            throw TimedOut(description: "no `command line` in \(line) in \(path)")
        }
        return String(quoted[1])
    }

    private static func line(in document: String, where matches: (String) -> Bool) throws -> (String, String)
    {
        let path = TestPaths.packageRoot.appendingPathComponent(document).path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        guard
            let line = text.split(separator: "\n").lazy.map({ $0.trimmingCharacters(in: .whitespaces) })
                .first(where: matches)
        else { throw TimedOut(description: "no line for the launcher in \(path)") }
        return (line, path)
    }
}
