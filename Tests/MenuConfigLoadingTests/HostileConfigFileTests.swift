import Foundation
import MenuConfigLoading
import MenuCore
import PropertyBased
import TestSupport
import Testing

/// Config files nobody should write but somebody will: binaries, random bytes, NULs,
/// other encodings and a hundred megabytes. Each gives errors of the documented
/// `LINE:COL: message` shape, pointing into the file, and nothing crashes.
@Suite struct HostileConfigFileTests {
    private func errors(_ result: Result<MenuConfig, ConfigErrors>) -> [ConfigError] {
        if case .failure(let failure) = result { return failure.errors }
        return []
    }

    private func messages(_ bytes: [UInt8]) -> [String] {
        errors(ConfigLoader.load(bytes: bytes, file: "t.yaml")).map {
            "\($0.mark.line):\($0.mark.column): \($0.message)"
        }
    }

    @Test func aNULIsReportedWhereItIs() {
        #expect(
            messages(Array("menu:\n  - title: a\u{0}b\n".utf8)) == [
                "2:13: invalid YAML: control characters are not allowed (byte 0x0)"
            ])
    }

    @Test func anExecutableIsOneErrorAtItsStart() throws {
        let path = "/bin/true"
        try #require(FileManager.default.isReadableFile(atPath: path))
        let found = errors(ConfigLoader.load(path: path))
        #expect(found.count == 1)
        #expect(found.first?.description.hasPrefix("\(path):1:1: invalid YAML: ") == true, "\(found)")
    }

    /// Seeded, so that a failure names bytes that can be regenerated.
    @Test(arguments: 0..<32)
    func randomBytesGiveErrorsInsideTheFile(seed: UInt64) {
        var generator = Xoshiro(seed: (seed, 0x6D65_6E75, 0x6375_7A7A, seed &* 31))
        let count = Int(generator.next() % 65536) + 1
        let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let lines = bytes.count { $0 == UInt8(ascii: "\n") } + 1
        let found = errors(ConfigLoader.load(bytes: bytes, file: "t.yaml"))
        #expect(!found.isEmpty, "seed \(seed) loaded")
        for error in found {
            #expect((1...lines).contains(error.mark.line), "seed \(seed): \(error)")
            #expect(error.mark.column >= 1, "seed \(seed): \(error)")
            #expect(!error.description.contains("\n"), "seed \(seed): \(error)")
        }
    }

    /// libyaml reads UTF-16 with a byte order mark, so menud does too.
    @Test func utf16WithAByteOrderMarkLoads() throws {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "menu:\n  - title: Wide\n    exec: ls\n".utf16 {
            bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        let config = try ConfigLoader.load(bytes: bytes, file: "t.yaml").get()
        #expect(config.menus.first?.exec == "ls")
    }

    /// One scalar of a hundred megabytes, as a text value: refused by the text
    /// limit, at the scalar's start, with no limit on the file's size needed.
    @Test func aHundredMegabyteScalarIsOneError() throws {
        let directory = try TempDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.file("scalar.yaml")
        var text = Array("menu:\n  - title: Note\n    type: text\n    value: ".utf8)
        text += [UInt8](repeating: UInt8(ascii: "x"), count: 100_000_000)
        text += Array("\n  - titel: After\n".utf8)
        try Data(text).write(to: URL(fileURLWithPath: path))
        #expect(
            errors(ConfigLoader.load(path: path)).map(\.description) == [
                "\(path):4:12: text is longer than 4096 bytes",
                "\(path):5:5: unknown key 'titel' (did you mean 'title'?)",
            ])
    }

    /// A hundred megabytes, with its only error on its last line: the loader reads all
    /// of it and still counts lines right.
    @Test func aHundredMegabyteFileReportsItsLastLine() throws {
        let directory = try TempDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.file("big.yaml")
        let comments = 1_000_000
        let filler = Array(("# " + String(repeating: "x", count: 98) + "\n").utf8)
        var text = Array("menu:\n  - title: First\n".utf8)
        text.reserveCapacity(filler.count * comments + 64)
        for _ in 0..<comments { text += filler }
        text += Array("  - titel: Last\n".utf8)
        #expect(text.count > 100_000_000)
        try Data(text).write(to: URL(fileURLWithPath: path))
        let line = comments + 3
        #expect(
            errors(ConfigLoader.load(path: path)).map(\.description) == [
                "\(path):\(line):5: unknown key 'titel' (did you mean 'title'?)"
            ])
    }
}
