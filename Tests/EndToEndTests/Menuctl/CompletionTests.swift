import Foundation
import TestSupport
import Testing

/// Node paths complete from the running daemon, through swift-argument-parser's
/// custom completion: the generated scripts run `menuctl ---completion SUBCOMMAND --
/// ARGUMENT WORD-INDEX CURSOR WORDS…`, as these tests do, and once through bash itself.
@Suite(.ownThread) struct CompletionTests {
    /// What menuctl offers for the last of `words` (the command line typed so far).
    static func complete(_ subcommand: String, argument: Int, _ words: [String]) throws -> [String] {
        let last = words.last ?? ""
        let result = try run(
            TestPaths.menuctl,
            [
                "---completion", subcommand, "--", "positional@\(argument)", String(words.count - 1),
                String(last.count),
            ]
                + words)
        #expect(result.status == 0, "\(words): \(result)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test func eachCommandOffersTheNodesItTakes() async throws {
        try await withDaemon { daemon throws in
            let socket = ["menuctl", "--socket", daemon.socketPath]
            #expect(
                try Self.complete("toggle", argument: 0, socket + ["toggle", "se"]) == [
                    "settings", "settings/theme",
                ])
            #expect(
                try Self.complete("set", argument: 0, socket + ["set", ""])
                    == ["settings/wifi", "settings/theme", "settings/hostname"])
            #expect(
                try Self.complete("activate", argument: 0, socket + ["activate", "settings/"])
                    == ["settings/wifi", "settings/theme", "settings/theme/Light", "settings/theme/Dark"])
            // Hidden nodes too (power is closed): what can be named does not depend on what shows.
            #expect(
                try Self.complete("get", argument: 0, socket + ["get", "power/"]) == [
                    "power/session", "power/session/lock",
                ])
            #expect(
                try Self.complete("focused", argument: 0, socket + ["focused", ""]) == [
                    "apps", "settings", "power",
                ])
            // The socket may come after the command too, and `--socket=PATH` works.
            #expect(
                try Self.complete(
                    "expand", argument: 0, ["menuctl", "expand", "--socket=\(daemon.socketPath)", "a"]) == [
                        "apps"
                    ])
            // set's value, for the path before it.
            #expect(
                try Self.complete("set", argument: 1, socket + ["set", "settings/theme", ""]) == [
                    "Light", "Dark",
                ])
            #expect(
                try Self.complete("set", argument: 1, socket + ["set", "settings/wifi", "o"]) == [
                    "on", "off",
                ])
        }
    }

    /// The daemon is reached through MENUD_SOCKET as any command would; without one
    /// there is nothing to offer, and the shell gets nothing rather than an error.
    @Test func withoutADaemonNothingIsOffered() throws {
        let directory = try TempDirectory()
        let words = ["menuctl", "--socket", directory.file("socket"), "toggle", ""]
        #expect(try Self.complete("toggle", argument: 0, words).isEmpty)
    }

    /// The bash script swift-argument-parser generates, run by bash as on Tab.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash")))
    func bashCompletesFromTheDaemon() async throws {
        try await withDaemon { daemon in
            let script = try run(TestPaths.menuctl, ["--generate-completion-script", "bash"])
            #expect(script.status == 0)
            let file = daemon.directory.file("menuctl.bash")
            try script.stdout.write(toFile: file, atomically: true, encoding: .utf8)
            // COMP_WORDS as bash splits the line; the script runs COMP_WORDS[0], found on PATH.
            let press = """
                source "$1"
                PATH="$2:$PATH"
                COMP_WORDS=(menuctl --socket "$3" set settings/theme "")
                COMP_CWORD=5
                COMP_LINE="menuctl --socket $3 set settings/theme "
                COMP_POINT=${#COMP_LINE}
                _menuctl menuctl "" settings/theme
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            let result = try run(
                "/bin/bash",
                ["-c", press, "bash", file, TestPaths.buildDirectory.path, daemon.socketPath])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.split(separator: "\n").sorted() == ["Dark", "Light"], "\(result)")
        }
    }
}
