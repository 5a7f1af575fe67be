import Foundation
import MenuConfigLoading
import MenuCore
import TestSupport
import Testing

/// Config files are streamed to libyaml in chunks and read again only to explain a
/// syntax error; these check that a big file loads, and fails, exactly as the same
/// bytes given whole do, with errors well past the first chunk.
@Suite struct StreamedConfigTests {
    /// A valid config of `groups` groups of ten items, about 0.5 KiB per group;
    /// libyaml asks for 16 KiB at a time.
    static func menu(groups: Int) -> String {
        var text = "menu:\n"
        for g in 0..<groups {
            text += "  - title: Group \(g)\n    children:\n"
            for i in 0..<10 { text += "      - {title: Item \(g).\(i), exec: echo \(g) \(i)}\n" }
        }
        return text
    }

    /// Loads `bytes` from a temporary file and from memory.
    func loadBothWays(_ bytes: [UInt8]) throws -> (
        file: Result<MenuConfig, ConfigErrors>, memory: Result<MenuConfig, ConfigErrors>, path: String
    ) {
        let directory = try TempDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.file("streamed.yaml")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (ConfigLoader.load(path: path), ConfigLoader.load(bytes: bytes, file: path), path)
    }

    func messages(_ result: Result<MenuConfig, ConfigErrors>) -> [String] {
        if case .failure(let f) = result { return f.errors.map(\.description) }
        return []
    }

    @Test func bigFileLoadsAsItsBytesDo() throws {
        let text = Self.menu(groups: 400)
        #expect(text.utf8.count > 128 * 1024)
        let (file, memory, _) = try loadBothWays(Array(text.utf8))
        let fromFile = try file.get()
        let fromMemory = try memory.get()
        #expect(fromFile.nodeCount == 400 * 11)
        #expect(fromFile.nodeCount == fromMemory.nodeCount)
        let last = try #require(fromFile.menus.last)
        #expect(last.id == "group-399")
        #expect(last.children.map(\.id) == fromMemory.menus.last?.children.map(\.id))
        #expect(last.children.last?.exec == "echo 399 9")
    }

    @Test func tabLateInABigFileIsPlacedAsInMemory() throws {
        let text = Self.menu(groups: 300) + "  - title: Last\n\t  exec: ls\n"
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        let (file, memory, path) = try loadBothWays(Array(text.utf8))
        #expect(messages(file) == ["\(path):\(line):1: tab in indentation; use spaces"])
        #expect(messages(file) == messages(memory))
    }

    @Test func badByteLateInABigFileIsPlacedAsInMemory() throws {
        let text = Self.menu(groups: 300) + "  - title: Caf"
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).count
        let (file, memory, path) = try loadBothWays(Array(text.utf8) + [0xFF, 0x0A])
        let found = messages(file)
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("\(path):\(line):15: invalid YAML") == true, "\(found)")
        #expect(found == messages(memory))
    }
}
