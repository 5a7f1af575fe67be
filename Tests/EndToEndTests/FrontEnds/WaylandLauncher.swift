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

    /// Where the launchers' command lines are given, each in a `menuctl pick
    /// --launcher '…'` line: contrib's README first, which the tests run.
    static let documents = ["contrib/fuzzel/README.md", "docs/integrations.md"]

    /// The command line `document` gives this launcher: the `--launcher` argument of
    /// its first `menuctl pick --launcher '…'` line.
    func documentedForm(in document: String = documents[0]) throws -> String {
        let path = TestPaths.packageRoot.appendingPathComponent(document).path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let head = "menuctl pick --launcher '"
        guard
            let line = text.split(separator: "\n").lazy.map({ $0.trimmingCharacters(in: .whitespaces) })
                .first(where: { $0.hasPrefix(head + program + " ") }),
            let end = line.lastIndex(of: "'"), end >= line.index(line.startIndex, offsetBy: head.count)
        else { throw TimedOut(description: "no line \(head)\(program) …' in \(path)") }
        return String(line[line.index(line.startIndex, offsetBy: head.count)..<end])
    }
}
