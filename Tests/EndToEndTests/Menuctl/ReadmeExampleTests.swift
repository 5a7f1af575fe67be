import Foundation
import TestSupport
import Testing

/// Every ```console block of README.md, replayed with the real menuctl against the real
/// menud serving the built-in menu, in the README's order: a new user's first commands
/// print what the README shows. A block of `$ menuctl watch` alone shows what a watch
/// started before the other blocks printed: it is started first, and its first lines
/// are compared once every other block has run.
@Suite(.ownThread) struct ReadmeExampleTests {
    struct Command: CustomStringConvertible {
        var line: Int
        var arguments: [String]
        var expected: [String] = []
        var description: String { "README.md:\(line): $ menuctl \(arguments.joined(separator: " "))" }
    }

    struct Block {
        var commands: [Command] = []
        var isWatch: Bool { commands.count == 1 && commands[0].arguments == ["watch"] }
    }

    static func blocks() throws -> [Block] {
        let text = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        var blocks: [Block] = []
        var current: Block?
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if current == nil {
                if line == "```console" { current = Block() }
            } else if line == "```" {
                blocks.append(current!)
                current = nil
            } else if line.hasPrefix("$ ") {
                let words = try shellWords(String(line.dropFirst(2)))
                try #require(words.first == "menuctl", "README.md:\(number + 1) runs no menuctl: \(line)")
                current!.commands.append(Command(line: number + 1, arguments: Array(words.dropFirst())))
            } else {
                try #require(
                    current!.commands.last != nil, "README.md:\(number + 1): output before a command")
                current!.commands[current!.commands.count - 1].expected.append(String(line))
            }
        }
        return blocks
    }

    /// A command line's words as sh splits them: blanks separate words, '…' and "…"
    /// quote (the README's commands need no escapes inside them), and a `#` that starts
    /// a word starts a comment.
    static func shellWords(_ line: String) throws -> [String] {
        var words: [String] = []
        var word: String?
        var quote: Character?
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { word!.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                word = word ?? ""
            } else if character == " " {
                if let finished = word { words.append(finished) }
                word = nil
            } else if character == "#" && word == nil {
                break
            } else {
                word = (word ?? "") + String(character)
            }
        }
        try #require(quote == nil, "an unclosed quote in: \(line)")
        if let word { words.append(word) }
        return words
    }

    @Test func readmeHasExamples() throws {
        let blocks = try Self.blocks()
        #expect(blocks.count >= 4 && blocks.filter(\.isWatch).count == 1, "\(blocks.map(\.commands))")
    }

    @Test func examplesMatchTheDaemon() async throws {
        let blocks = try Self.blocks()
        let directory = try TempDirectory()
        // No config in this home, so the built-in menu; and no program on PATH, so its
        // values from the system (wpctl, nmcli) fail and keep their defaults, marked
        // stale, on any machine.
        let bin = directory.file("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let daemon = try TestDaemon(
            directory: directory, config: nil,
            environment: ["HOME": directory.path, "XDG_CONFIG_HOME": directory.file("config"), "PATH": bin])
        var watch: WatchProcess?
        defer { watch?.stop() }
        try await daemon.whileRunning { daemon in
            #expect(daemon.log.contains("serving the built-in menu"), "\(daemon.log)")
            // The first reads of those values have failed: nothing changes after this
            // on its own, so a watch prints only what the commands change.
            for path in ["display/volume", "settings/network/wifi"] {
                try await waitUntil("\(path)'s first read to fail; log:\n\(daemon.log)") {
                    try daemon.menuctl(["--raw", "get", path]).stdout.contains("\tstale")
                }
            }
            // The watch's first line is the menu when it started: read before any
            // command runs, so that none can come before it.
            var first: String?
            if blocks.contains(where: \.isWatch) {
                watch = try WatchProcess(socket: daemon.socketPath)
                first = try await watch!.nextLine("the watch's first line")
            }
            for block in blocks where !block.isWatch {
                for command in block.commands {
                    let result = try daemon.menuctl(command.arguments)
                    #expect(result.status == 0 && result.stderr.isEmpty, "\(command): \(result)")
                    let printed = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
                        .dropLast().map(String.init)
                    #expect(
                        printed.map(Self.withoutTimes) == command.expected.map(Self.withoutTimes),
                        "\(command)")
                }
            }
            for block in blocks where block.isWatch {
                let command = block.commands[0]
                var printed: [String] = first.map { [$0] } ?? []
                while printed.count < command.expected.count {
                    printed.append(try await watch!.nextLine("\(command)"))
                }
                #expect(printed == command.expected, "\(command)")
            }
        }
    }

    /// The text with each UTC time (`2026-11-28T16:22:22Z`, when a value went stale)
    /// as one placeholder: the README shows one time, the daemon another.
    static func withoutTimes(_ text: String) -> String {
        text.replacing(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/, with: "TIME")
    }
}
