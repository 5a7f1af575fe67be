import MenuConfigLoading
import MenuCore
import Testing

/// Inputs that cannot live in a fixture file: hostile sizes, encodings and bytes.
@Suite struct ConfigLoaderInputTests {
    func messages(_ bytes: [UInt8]) -> [String] {
        switch ConfigLoader.load(bytes: bytes, file: "t.yaml") {
        case .success: return []
        case .failure(let f): return f.errors.map { "\($0.mark.line):\($0.mark.column): \($0.message)" }
        }
    }

    func messages(_ text: String) -> [String] { messages(Array(text.utf8)) }

    @Test func deepFlowSequenceFailsAtTheLimit() {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(
            messages(text) == [
                "1:1: expected a mapping with 'menu', got a list",
                "1:257: YAML is nested deeper than 256 levels",
            ])
    }

    @Test func deepFlowMappingFailsAtTheLimit() {
        let text = String(repeating: "{a: ", count: 100_000) + "1" + String(repeating: "}", count: 100_000)
        #expect(
            messages(text) == [
                "1:2: unknown key 'a' (known keys: menu, settings)",
                "1:\(4 * 256 + 1): YAML is nested deeper than 256 levels",
            ])
    }

    /// Block collections can nest on one line (`- - - x`), so 100,000 levels fit in
    /// 200 KB; the reader must stop at the limit without recursing.
    @Test func deepBlockSequenceFailsAtTheLimit() {
        let text = String(repeating: "- ", count: 100_000) + "x\n"
        #expect(
            messages(text) == [
                "1:1: expected a mapping with 'menu', got a list",
                "1:\(2 * 256 + 1): YAML is nested deeper than 256 levels",
            ])
    }

    /// The same with mappings, through explicit keys (`? ? ? x`).
    @Test func deepBlockMappingFailsAtTheLimit() {
        let text = String(repeating: "? ", count: 100_000) + "x\n"
        #expect(
            messages(text) == [
                "1:3: expected a key, got a mapping",
                "1:\(2 * 256 + 1): YAML is nested deeper than 256 levels",
            ])
    }

    @Test func deepMenuFailsAtTheMenuLimit() {
        var text = "menu:\n"
        for level in 0..<100 {
            let pad = String(repeating: "    ", count: level)
            text += "\(pad)  - title: L\(level)\n\(pad)    children:\n"
        }
        text += String(repeating: "    ", count: 100) + "  - title: leaf\n"
        // The 65th level starts on line 130, after 64 levels of 4-space indentation.
        #expect(messages(text) == ["130:\(64 * 4 + 5): menu is nested deeper than 64 levels"])
    }

    @Test func billionLaughsFailsAtTheFirstAnchor() {
        var text = "lol0: &a0 [lol]\n"
        for i in 1...9 {
            text +=
                "lol\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 9).joined(separator: ", ") + "]\n"
        }
        text += "menu: [{title: x}]\n"
        #expect(messages(text) == ["1:7: anchors and aliases are not supported"])
    }

    @Test func invalidUTF8IsReportedWhereItIs() {
        let bytes = Array("menu:\n  - title: caf".utf8) + [0xC3, 0x28] + Array("\n".utf8)
        let errors = messages(bytes)
        #expect(errors.count == 1)
        #expect(errors.first == "2:16: invalid YAML: invalid trailing UTF-8 octet (byte 0x28)")
    }

    @Test func byteOrderMarkAndCRLFLoad() throws {
        let text = "menu:\r\n  - title: Caf\u{E9}\r\n    exec: ls\r\n"
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(text.utf8)
        let config = try ConfigLoader.load(bytes: bytes, file: "t.yaml").get()
        #expect(config.menus.first?.title == TitleTemplate(literal: "Caf\u{E9}"))
        #expect(config.menus.first?.exec == "ls")
        #expect(config.menus.first?.id == "caf")
        #expect(
            messages([0xEF, 0xBB, 0xBF] + Array("menu:\r\n  - titel: x\r\n".utf8)) == [
                "2:5: unknown key 'titel' (did you mean 'title'?)"
            ])
    }

    /// The byte order mark takes no column: an error on the first line is at 1:1.
    @Test func byteOrderMarkLeavesColumnsAlone() {
        #expect(
            messages([0xEF, 0xBB, 0xBF] + Array("menux:\n  - title: a\n".utf8)) == [
                "1:1: unknown key 'menux' (did you mean 'menu'?)"
            ])
        #expect(
            messages([0xEF, 0xBB, 0xBF] + Array("menu: [{title: a, exec: [x]}]\n".utf8)) == [
                "1:25: expected a string, got a list"
            ])
    }

    /// A CR is part of the line ending, never a column of the next line, and an error
    /// after mixed endings still names the right line.
    @Test func crlfErrorsAreOnTheRightLineAndColumn() {
        #expect(
            messages("menu:\r\n  - title: a\r\n  - {title: b, exec: [x]}\r\n") == [
                "3:22: expected a string, got a list"
            ])
        #expect(
            messages("menu:\r\n  - title: a\n\r\n  - title: b\r\n    type: grup\r\n") == [
                "5:11: unknown type 'grup' (expected one of: group, item, toggle, choice, range, text, date)"
            ])
    }

    /// libyaml reads UTF-16 in either byte order; positions count characters as in UTF-8.
    @Test func utf16BigEndianLoadsAndReportsPositions() throws {
        func utf16BE(_ text: String) -> [UInt8] {
            [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        }
        let config = try ConfigLoader.load(bytes: utf16BE("menu:\n  - title: Caf\u{E9}\n"), file: "t.yaml")
            .get()
        #expect(config.menus.first?.title == TitleTemplate(literal: "Caf\u{E9}"))
        #expect(
            messages(utf16BE("menu:\n  - title: Caf\u{E9}\n    titel: x\n")) == [
                "3:5: unknown key 'titel' (did you mean 'title'?)"
            ])
    }

    @Test func emptyInputIsAnError() {
        #expect(messages("") == ["1:1: empty config"])
        #expect(messages("\n\n   \n") == ["1:1: empty config"])
        #expect(messages("---\n") == ["1:1: empty config"])
    }

    @Test func unreadableFileIsOneError() {
        let path = "/nonexistent/menud/menu.yaml"
        guard case .failure(let failure) = ConfigLoader.load(path: path) else {
            Issue.record("loaded a missing file")
            return
        }
        #expect(
            failure.errors.map(\.description) == [
                "\(path):1:1: cannot read config: No such file or directory"
            ])
        guard case .failure(let directory) = ConfigLoader.load(path: "/") else {
            Issue.record("loaded a directory")
            return
        }
        #expect(directory.errors.map(\.description) == ["/:1:1: cannot read config: Is a directory"])
    }

    @Test func errorsPrintWithTheFileName() {
        guard case .failure(let failure) = ConfigLoader.load(text: "menu: 3\n", file: "my.yaml") else {
            Issue.record("loaded")
            return
        }
        #expect(failure.description == "my.yaml:1:7: expected a list of nodes, got '3'")
    }
}
