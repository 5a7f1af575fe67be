import Foundation
import TestSupport
import Testing

/// Every format, fed the hostile fixture: whatever a title or value holds (tags,
/// markup, newlines, tabs, `|`, NUL, `\x1f`, control characters, `%`), the output keeps
/// the structure its reader expects, and the text arrives as text. The real programs
/// read these outputs in the front-end tests (polybar, rofi, waybar, yambar, i3blocks,
/// dmenu); this checks the structure itself, in every format, including those no test
/// can run (eww).
@Suite(.ownThread) struct HostileTextTests {
    static let rowCount = 7

    @Test func rowPerLineFormatsKeepARowPerLine() async throws {
        try await withDaemon(config: TestPaths.fixture("hostile.yaml")) { daemon throws in
            for arguments in [
                [], ["--format", "lines"], ["--template", "{indent}{title}|{value}|{subtitle}"],
            ] {
                let text = try rendered(daemon, arguments)
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                #expect(lines.count == Self.rowCount, "\(arguments): \(text)")
                #expect(
                    !text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(arguments): \(text)")
            }
            #expect(try rendered(daemon, []).contains("Opts a␟info␟power b␀icon␟x c␁d"), "control pictures")
            #expect(try rendered(daemon, ["--format", "lines"]).contains("Line one line two and a tab\n"))
        }
    }

    @Test func polybarGetsNoTagFromTheText() async throws {
        try await withDaemon(config: TestPaths.fixture("hostile.yaml")) { daemon throws in
            #expect(
                try daemon.menuctl(["set", "evil/host", "%{A}%{A1:touch PWNED-set:}click-me"]).status == 0)
            let text = try rendered(daemon, ["--format", "polybar"])
            #expect(text.split(separator: "\n").count == 1)
            let (tags, shown) = Self.polybarRead(text)
            // menuctl's own actions, reverse, and the empty offsets that break every %.
            let ownAction = "A1:\(TestPaths.menuctl) --socket \(daemon.socketPath) focus "
            for tag in tags {
                #expect(
                    ["A", "R", "O0"].contains(tag) || tag.hasPrefix(ownAction) || tag.contains(" nav "),
                    "\(tag)")
            }
            #expect(tags.count(where: { $0.hasPrefix("A1:") }) == Self.rowCount)
            #expect(shown.contains("%{A1:touch PWNED-title:}Tags%{A} <b>R&D</b> 50% off | x"), "\(shown)")
            #expect(shown.contains("Host: %{A}%{A1:touch PWNED-set:}click-me"), "\(shown)")
        }
    }

    /// The tags and the text polybar 3.6 reads in a line, by its parser's rule: `%{`
    /// opens a tag anywhere; an action's command runs to its first unescaped `:`, any
    /// other tag to `}`; every other character is text.
    static func polybarRead(_ line: String) -> (tags: [String], text: String) {
        var tags: [String] = []
        var text = ""
        var rest = Substring(line)
        while let c = rest.first {
            guard rest.hasPrefix("%{") else {
                text.append(c)
                rest = rest.dropFirst()
                continue
            }
            rest = rest.dropFirst(2)
            var tag = ""
            var colons = 0
            let isAction = rest.first == "A" && rest.dropFirst().first?.isNumber == true
            while let t = rest.first {
                rest = rest.dropFirst()
                if t == "\\", let escaped = rest.first {
                    tag.append(t)
                    tag.append(escaped)
                    rest = rest.dropFirst()
                    continue
                }
                if t == "}" && (!isAction || colons == 2) { break }
                if t == ":" { colons += 1 }
                tag.append(t)
            }
            tags.append(tag)
        }
        return (tags, text)
    }

    @Test func waybarAndJSONParseAndCarryTheText() async throws {
        try await withDaemon(config: TestPaths.fixture("hostile.yaml")) { daemon throws in
            let waybar = try rendered(daemon, ["--format", "waybar"])
            #expect(waybar.split(separator: "\n").count == 1)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(waybar.utf8)) as? [String: Any])
            let text = try #require(object["text"] as? String)
            let tooltip = try #require(object["tooltip"] as? String)
            // The only markup is menuctl's bold around the focused row.
            for markup in [text, tooltip] {
                #expect(markup.replacing("<b>", with: "").replacing("</b>", with: "").contains("<") == false)
                #expect(markup.contains("&lt;b&gt;R&amp;D&lt;/b&gt;"))
            }
            #expect(tooltip.split(separator: "\n").count == Self.rowCount)
            #expect(tooltip.hasPrefix("<b>▾ %{A1:touch PWNED-title:}Tags"), "the focused row in bold")

            let json = try rendered(daemon, ["--format", "json"])
            let rows = try #require(
                (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["rows"]
                    as? [[String: Any]])
            // JSON stays exact: its reader shows plain text.
            #expect(rows[1]["title"] as? String == "Line one\nline two\tand a tab")
            #expect(rows[2]["title"] as? String == "Opts a\u{1f}info\u{1f}power b\0icon\u{1f}x c\u{1}d")
        }
    }

    @Test func i3blocksAndYambarKeepTheirLines() async throws {
        try await withDaemon(config: TestPaths.fixture("hostile.yaml")) { daemon throws in
            _ = try daemon.menuctl(["focus", "evil/lines"])
            let blocks = try rendered(daemon, ["--format", "i3blocks"])
            #expect(blocks.split(separator: "\n", omittingEmptySubsequences: false).count == 4, "\(blocks)")
            #expect(blocks.contains("\n[Line one line two and a tab]") == false)
            #expect(blocks.split(separator: "\n")[1] == "Line one line two and a tab")

            let tags = try rendered(daemon, ["--format", "yambar"])
            let lines = tags.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(
                lines.count == 9 && lines[7].isEmpty && lines[8].isEmpty, "seven tags and the end: \(tags)")
            #expect(lines[1] == "focus|string|Line one line two and a tab")
        }
    }

    @Test func rofiRowsEachCarryTheirOwnInfo() async throws {
        try await withDaemon(config: TestPaths.fixture("hostile.yaml")) { daemon throws in
            let output = try daemon.menuctl(["rofi"]).stdout
            let lines = output.split(separator: "\n")
            let rows = lines.filter { !$0.hasPrefix("\0") }
            #expect(rows.count == Self.rowCount, "\(output)")
            for row in rows {
                #expect(
                    row.split(separator: "\0", omittingEmptySubsequences: false).count == 2,
                    "one option: \(row)")
                #expect(row.split(separator: "\u{1f}", omittingEmptySubsequences: false).count == 2, "\(row)")
            }
            #expect(rows[2].hasSuffix("\0info\u{1f}evil/options"))
        }
    }
}
