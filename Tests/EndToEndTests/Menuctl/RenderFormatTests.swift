import Foundation
import TestSupport
import Testing

/// `menuctl render` in each format, against the real daemon serving the example menu
/// (it has ranges) or the fixture.
@Suite(.ownThread) struct RenderFormatTests {
    static let example = TestPaths.fixture("example-static.yaml")

    @Test func treeMarksTheFocusAndNavMovesIt() async throws {
        try await withDaemon { daemon throws in
            #expect(try rendered(daemon, []).hasPrefix("> ▸ Applications\n  ▾ Settings\n"))
            #expect(try daemon.menuctl(["--raw", "nav", "next"]).stdout == "focus\tsettings\tsettings\n")
            #expect(
                try daemon.menuctl(["--raw", "nav", "right"]).stdout == "focus\tsettings\tsettings/wifi\n")
            #expect(
                try rendered(daemon, ["settings"])
                    == "  ▾ Settings\n>     Wi-Fi: on\n    ▸ Theme: Dark\n      Hostname: workstation\n")
            #expect(try daemon.menuctl(["nav", "bogus"]).status == 2)
        }
    }

    @Test func waybarIsOneLineOfJSONWithTheDocumentedKeys() async throws {
        try await withDaemon(config: Self.example) { daemon throws in
            let text = try rendered(daemon, ["--format", "waybar"])
            #expect(text.split(separator: "\n").count == 1)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            #expect(Set(object.keys) == ["text", "alt", "tooltip", "class"])
            #expect(object["text"] as? String == "<b>▸ Applications</b>  ▸ Settings  ▸ Display  ▸ Power")
            #expect(object["alt"] as? String == "apps")
            #expect(object["class"] as? [String] == ["group", "collapsed"])

            #expect(try daemon.menuctl(["focus", "display/volume"]).status == 0)
            let range = try #require(
                try JSONSerialization.jsonObject(
                    with: Data(try rendered(daemon, ["--format", "waybar", "display"]).utf8))
                    as? [String: Any])
            #expect(range["percentage"] as? Int == 40)
            #expect(range["class"] as? [String] == ["range"])
            #expect((range["tooltip"] as? String)?.contains("Volume: 40%") == true)
        }
    }

    /// A range wider than a Double (max − min overflows) still has a percentage.
    @Test func aRangeWiderThanADoubleHasAPercentage() async throws {
        try await withDaemon(config: TestPaths.fixture("huge-ranges.yaml")) { daemon throws in
            #expect(try daemon.menuctl(["focus", "huge/wide"]).status == 0)
            let object = try #require(
                try JSONSerialization.jsonObject(
                    with: Data(try rendered(daemon, ["--format", "waybar", "huge"]).utf8)) as? [String: Any])
            #expect(object["percentage"] as? Int == 100)
        }
    }

    @Test func i3blocksPrintsFullTextShortTextAndColor() async throws {
        try await withDaemon { daemon throws in
            _ = try daemon.menuctl(["focus", "settings/wifi"])
            let lines = try rendered(daemon, ["--format", "i3blocks"]).split(
                separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 4 && lines[3].isEmpty, "three lines: \(lines)")
            #expect(
                lines[0]
                    == "▸ Applications  ▾ Settings  [Wi-Fi: on]  ▸ Theme: Dark  Hostname: workstation  ▸ Power"
            )
            #expect(lines[1] == "Wi-Fi: on")
            #expect(lines[2] == "#50FA7B", "a toggle that is on")
            #expect(try daemon.menuctl(["set", "settings/wifi", "off"]).status == 0)
            #expect(try rendered(daemon, ["--format", "i3blocks"]).hasSuffix("\nWi-Fi: off\n#6272A4\n"))
            _ = try daemon.menuctl(["focus", "settings/theme"])
            #expect(
                try rendered(daemon, ["--format", "i3blocks"]).hasSuffix("\n▸ Theme: Dark\n\n"), "no color")
        }
    }

    @Test func yambarPrintsOneCommittedTagSet() async throws {
        try await withDaemon(config: Self.example) { daemon throws in
            _ = try daemon.menuctl(["focus", "display/brightness"])
            let text = try rendered(daemon, ["--format", "yambar", "display"])
            #expect(text.hasSuffix("\n\n"), "a transaction ends with an empty line")
            var tags: [String: (type: String, value: String)] = [:]
            for line in text.dropLast(2).split(separator: "\n") {
                let parts = line.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
                #expect(parts.count == 3, "name|type|value: \(line)")
                #expect(
                    ["string", "int", "bool", "float"].contains(parts[1]) || parts[1].hasPrefix("range:"))
                tags[String(parts[0])] = (String(parts[1]), String(parts[2]))
            }
            #expect(tags["path"]?.value == "display/brightness")
            #expect(tags["percent"]?.type == "range:0-100")
            #expect(tags["percent"]?.value == "68")
            #expect(tags["text"]?.value == "▾ Display  Volume: 40%  Brightness: 70%")
        }
    }

    @Test func polybarActionsCallMenuctlBack() async throws {
        try await withDaemon(config: Self.example) { daemon throws in
            let text = try rendered(daemon, ["--format", "polybar"])
            #expect(
                text.components(separatedBy: "%{A").count - 1 == 2
                    * text.components(separatedBy: "%{A}").count - 2)
            #expect(text.contains("nav next >/dev/null:}"))
            // A row's click action, run as polybar runs it, opens that row's group.
            let click = try #require(
                text.components(separatedBy: "%{A1:").dropFirst().map { $0.components(separatedBy: ":}")[0] }
                    .first { $0.contains("activate display") })
            let result = try run(
                "/bin/sh", ["-c", click.replacing("\\:", with: ":").replacing("%%", with: "%")])
            #expect(result.status == 0, "\(result)")
            #expect(try daemon.menuctl(["--raw", "get", "display"]).stdout.contains("\texpanded\t"))
            #expect(try rendered(daemon, ["--format", "polybar"]).contains("Volume: 40%%"))
        }
    }

    @Test func jsonAndTemplate() async throws {
        try await withDaemon { daemon throws in
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(try rendered(daemon, ["--format", "json"]).utf8))
                    as? [String: Any])
            #expect(object["focus"] as? String == "apps")
            let rows = try #require(object["rows"] as? [[String: Any]])
            #expect(rows.map { $0["focused"] as? Bool } == [true, false, false, false, false, false])

            #expect(
                try rendered(
                    daemon,
                    ["--template", "{indent}{focused}{arrow}|{title}|{path}|{depth}|{value}", "settings"])
                    == "*▾|Settings|settings|0|\n  |Wi-Fi: on|settings/wifi|1|on\n  ▸|Theme: Dark|settings/theme|1|Dark\n  |Hostname: workstation|settings/hostname|1|workstation\n"
            )
            let bad = try daemon.menuctl(["render", "--template", "{nope}"])
            #expect(bad.status == 2 && bad.stderr.contains("unknown field"), "\(bad)")
            #expect(try rendered(daemon, ["--format", "lines", "apps"]) == "▸ Applications\n")
        }
    }
}

/// `menuctl render ARGUMENTS` against `daemon`, expected to succeed.
func rendered(_ daemon: TestDaemon, _ arguments: [String]) throws -> String {
    let result = try daemon.menuctl(["render"] + arguments)
    #expect(result.status == 0, "\(arguments): \(result)")
    return result.stdout
}
