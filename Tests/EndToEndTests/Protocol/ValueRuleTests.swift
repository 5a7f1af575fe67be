import Foundation
import TestSupport
import Testing

/// A value means the same in a config's `value:` and in `menuctl set` (once,
/// `set quick/wifi yes` failed while `value: yes` loaded). Each word is tried both
/// ways against the real binaries: `menud --check` and a daemon serving the config on
/// one side, `menuctl set` on a running daemon on the other. Both must accept it or
/// both refuse it, and when they accept, agree on the value.
@Suite(.ownThread) struct ValueRuleTests {
    static let toggleWords = ["yes", "No", "ON", "off", "TRUE", "False", "y", "1", "maybe", "yess"]
    /// Without `+10`: the config reads it as 10, and `set` refuses it as relative
    /// (``aLeadingPlusIsAValueInTheConfigAndAStepForSet()``).
    static let rangeWords = [
        "60", "-5", "1e1", ".5e2", "10.0", "0x14", "inf", "nan", "1e999", "sixty", "120", "7",
    ]

    /// A menu with a toggle and a range, one of them given `value: WORD`.
    static func config(toggle: String = "off", range: String = "0") -> String {
        """
        menu:
          - id: quick
            title: Quick
            children:
              - id: wifi
                title: "Wi-Fi: {value}"
                type: toggle
                value: \(toggle)
              - id: volume
                title: "Volume: {value}%"
                type: range
                min: -20
                max: 100
                step: 5
                value: \(range)
        """
    }

    @Test(arguments: toggleWords.map { ($0, "wifi") } + rangeWords.map { ($0, "volume") })
    func configAndSetAgree(word: String, node: String) async throws {
        let directory = try TempDirectory()
        let file = directory.file("word.yaml")
        let text = node == "wifi" ? Self.config(toggle: word) : Self.config(range: word)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let check = try run(TestPaths.menud, ["--check", "--config", file])
        var fromConfig: String?
        if check.status == 0 {
            fromConfig = try await withDaemon(config: file, arguments: ["--no-state"]) { daemon in
                try Self.value(daemon, "quick/\(node)")
            }
        }

        let base = directory.file("base.yaml")
        try Self.config().write(toFile: base, atomically: true, encoding: .utf8)
        let (set, fromSet) = try await withDaemon(config: base, arguments: ["--no-state"]) { daemon in
            let set = try daemon.menuctl(["set", "quick/\(node)", word])
            return (set, try Self.value(daemon, "quick/\(node)"))
        }
        #expect(
            (check.status == 0) == (set.status == 0),
            "'\(word)': menud --check says \(check), menuctl set says \(set)")
        if check.status == 0 && set.status == 0 {
            #expect(
                fromConfig != nil && fromConfig == fromSet,
                "'\(word)': config \(fromConfig ?? "-"), set \(fromSet ?? "-")")
        } else {
            // Refused with the rule's reason: the config names the line, `set` the code.
            #expect(set.status == 1 && set.stderr.contains("invalid-value"), "\(set)")
            #expect(check.status == 1 && check.stderr.contains("word.yaml:"), "\(check)")
        }
    }

    /// The words users write, spelled out, so that a rule that refused both ways
    /// could not pass.
    @Test func setTakesYesAsTheConfigDoes() async throws {
        try await withDaemon { daemon in
            for (word, value) in [("no", "off"), ("yes", "on"), ("OFF", "off"), ("On", "on")] {
                let set = try daemon.menuctl(["set", "settings/wifi", word])
                #expect(set.status == 0, "\(word): \(set)")
                #expect(try Self.value(daemon, "settings/wifi") == value, "\(word)")
            }
        }
    }

    /// The one word the two read apart, on purpose: in the config `value: +10` can
    /// only mean 10, while `set +10` is most likely meant as "10 more", which `set`
    /// refuses, pointing to `step`.
    @Test func aLeadingPlusIsAValueInTheConfigAndAStepForSet() async throws {
        try await withConfigFile(Self.config(range: "+10")) { file in
            try await withDaemon(config: file, arguments: ["--no-state"]) { daemon in
                #expect(try Self.value(daemon, "quick/volume") == "10")
                let set = try daemon.menuctl(["set", "quick/volume", "+10"])
                #expect(
                    set.status == 1 && set.stderr.contains("'+10' is relative; use step quick/volume +10"),
                    "\(set)")
                #expect(try daemon.menuctl(["step", "quick/volume", "+10"]).status == 0)
                #expect(try Self.value(daemon, "quick/volume") == "20")
            }
        }
    }

    /// The node's value as `menuctl --json get` reports it.
    static func value(_ daemon: TestDaemon, _ path: String) throws -> String? {
        let get = try daemon.menuctl(["--json", "get", path])
        let object = try JSONSerialization.jsonObject(with: Data(get.stdout.utf8)) as? [String: Any]
        return object?["value"] as? String
    }
}
