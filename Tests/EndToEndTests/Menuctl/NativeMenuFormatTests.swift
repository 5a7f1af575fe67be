import Foundation
import TestSupport
import Testing

/// `menuctl render --format openbox` and `--format jgmenu` as text, against the real
/// daemon: every node in submenus whether open or not, the commands menuctl's own,
/// and (with hostile-menus.yaml) no text that becomes structure. The real openbox and
/// jgmenu read them in OpenboxTests and JgmenuTests.
@Suite(.ownThread) struct NativeMenuFormatTests {
    static let example = TestPaths.fixture("example-static.yaml")

    /// A directory for a socket whose path holds what the shell and the formats read:
    /// a space, a comma, both quotes, a `~` and a `$`.
    static let awkwardSocketDirectory = #"a b,c'd"e ~$HOME"#

    @Test func openboxIsAPipeMenuOfEveryNode() async throws {
        try await withDaemon(config: Self.example) { daemon throws in
            let menuctl = "\(TestPaths.menuctl) --socket \(daemon.socketPath)"
            #expect(
                try rendered(daemon, ["--format", "openbox", "settings/network"]) == """
                    <openbox_pipe_menu>
                      <item label="Wi-Fi: on"><action name="Execute"><command>\(menuctl) activate settings/network/wifi</command></action></item>
                      <item label="Bluetooth: off"><action name="Execute"><command>\(menuctl) activate settings/network/bluetooth</command></action></item>
                    </openbox_pipe_menu>

                    """)
            let whole = try rendered(daemon, ["--format", "openbox"])
            // Closed in the daemon, open here: a choice's options, a confirmation's
            // answers, a range's steps, a text row that runs nothing.
            for line in [
                #"<menu id="menud:settings/appearance/theme" label="Theme: Dark">"#,
                #"<item label="○ Light"><action name="Execute"><command>\#(menuctl) activate settings/appearance/theme/Light</command>"#,
                #"<menu id="menud:power/shutdown" label="Shut down">"#,
                #"<command>\#(menuctl) activate power/shutdown/yes</command>"#,
                #"<item label="● 40"><action name="Execute"><command>\#(menuctl) set display/volume 40</command>"#,
                #"<item label="Hostname: workstation"/>"#,
            ] {
                #expect(whole.contains(line), "\(line) in: \(whole)")
            }
            #expect(whole.components(separatedBy: "<menu ").count - 1 == 13, "\(whole)")
            #expect(whole.components(separatedBy: "</menu>").count - 1 == 13, "\(whole)")
        }
    }

    @Test func jgmenuIsCSVWithATagPerSubmenu() async throws {
        try await withDaemon(config: Self.example) { daemon throws in
            let menuctl = "\(TestPaths.menuctl) --socket \(daemon.socketPath)"
            let lines = try rendered(daemon, ["--format", "jgmenu", "display"]).split(separator: "\n")
            #expect(
                Array(lines.prefix(4)) == [
                    "Volume: 40%,^checkout(menud:display/volume)",
                    "Brightness: 70%,^checkout(menud:display/brightness)",
                    "^tag(menud:display/volume)",
                    "○ 0,\(menuctl) set display/volume 0",
                ])
            #expect(lines.contains("● 40,\(menuctl) set display/volume 40"))
            #expect(lines.count == 2 + 1 + 21 + 1 + 20, "\(lines)")

            let whole = try rendered(daemon, ["--format", "jgmenu"])
            #expect(whole.hasPrefix("Applications,^checkout(menud:apps),applications-other\n"), "\(whole)")
            #expect(whole.contains("\nHostname: workstation,true\n"), "a text row runs a no-op: \(whole)")
            #expect(whole.contains("\nYes,\(menuctl) activate power/shutdown/yes\n"), "\(whole)")
        }
    }

    /// They are read once, when the menu opens; and menuctl's words must fit a line.
    @Test func watchRefusesThemAndAControlCharacterInTheSocketIsRefused() async throws {
        try await withDaemon { daemon throws in
            for format in ["openbox", "jgmenu"] {
                let watch = try daemon.menuctl(["watch", "--format", format])
                #expect(watch.status == 2 && watch.stderr.contains("use menuctl render --format \(format)"))
                let bad = try run(TestPaths.menuctl, ["--socket", "/tmp/a\nb", "render", "--format", format])
                #expect(bad.status == 2 && bad.stderr.contains("control character"), "\(bad)")
            }
        }
    }

    /// hostile-menus.yaml through both formats, read line by line as their programs
    /// read them: only menuctl's own structure and commands come out, and the text in
    /// its place.
    @Test func hostileTextStaysInItsLabels() async throws {
        let planted = try TempDirectory()
        try await withDaemon(config: try hostileMenusConfig(in: planted)) { daemon throws in
            let menuctl = NSRegularExpression.escapedPattern(
                for: "\(TestPaths.menuctl) --socket \(daemon.socketPath)")
            let command = #"\#(menuctl) (activate|set|step) [A-Za-z0-9._/-]+( [-+]?[0-9.]+)?"#
            let attribute = #"([^"<>&]|&(amp|lt|gt|quot|apos);)*"#
            let openbox = try rendered(daemon, ["--format", "openbox"])
            let xmlLine = try Regex(
                #"^ *(</?openbox_pipe_menu>|</menu>|<menu id="menud:[A-Za-z0-9._/-]+" label="\#(attribute)">"#
                    + #"|<item label="\#(attribute)"/>"#
                    + #"|<item label="\#(attribute)"><action name="Execute"><command>\#(command)</command></action></item>)$"#
            )
            let xml = openbox.split(separator: "\n")
            for line in xml { #expect(line.wholeMatch(of: xmlLine) != nil, "\(line)") }
            #expect(xml.count(where: { $0.contains("<item ") }) == 18, "\(openbox)")
            #expect(xml.count(where: { $0.contains("<menu ") }) == 4, "\(openbox)")
            #expect(
                !openbox.unicodeScalars.contains {
                    $0.value < 0x20 && $0 != "\n" || $0.value & 0xFFFE == 0xFFFE
                })
            #expect(openbox.contains(#"label="Access __q, under__score ____double \n two""#), "\(openbox)")

            let jgmenu = try rendered(daemon, ["--format", "jgmenu"])
            // No ",", quote, caret or backslash anywhere, nor "#", "@" or "." first:
            // those only as references, which jgmenu leaves to Pango.
            let reference = "&(amp|lt|gt|#[0-9]+);"
            let label = ##"([^,"^\\#@.&]|\##(reference))([^,"^\\&]|\##(reference))*"##
            let row = try Regex(
                #"^(\^tag\(menud:[A-Za-z0-9._/-]+\)|\#(label),(\^checkout\(menud:[A-Za-z0-9._/-]+\)|true|\#(command))(,[A-Za-z0-9._/+-]+)?)$"#
            )
            let csv = jgmenu.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            for line in csv {
                #expect(line.wholeMatch(of: row) != nil, "\(line)")
                #expect(line.utf8.count < 8192)
            }
            #expect(csv.count(where: { $0.hasPrefix("^tag(") }) == 4, "\(jgmenu)")
            #expect(csv.count == 2 + 4 + 14 + 2 + 3 + 1, "\(jgmenu)")
            #expect(!jgmenu.contains("\"\"\""))
            #expect(jgmenu.contains("\nComma&#44;touch \(planted.path)/PWNED-jg-comma,"), "\(jgmenu)")
        }
    }
}
