import MenuProtocol
import Testing

@testable import menud

/// What a handler reads of its request: arguments from the words' bytes, and flags.
@Suite struct InvocationTests {
    private func invocation(_ words: [ProtocolWord]) throws(ProtocolError) -> Invocation {
        try CommandTable.standard.resolve(RequestWords(words))
    }

    /// `row`'s number is read from the word's bytes exactly as `Int(_:)` reads it.
    @Test(arguments: [
        "0", "3", "42", "-1", "+7", "-0", "007", "", "-", "+", "--1", "+-1", "1-", "3.0", "1e3", "x", " 1",
        "١", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "99999999999999999999",
    ])
    func anIntegerArgumentReadsAsIntDoes(text: String) throws {
        let row = try invocation([ProtocolWord("row"), ProtocolWord(text, quoted: true)])
        #expect(row.arguments.integer(0) == Int(text))
    }

    @Test func flagsStandAnywhereAndADoubleDashEndsThem() throws {
        let flagged = try invocation([
            ProtocolWord("toggle"), ProtocolWord("--recursive"), ProtocolWord("power"),
        ])
        #expect(flagged.has("--recursive"))
        #expect(flagged.arguments.count == 1)
        #expect(flagged.arguments[0] == "power")

        let plain = try invocation([ProtocolWord("toggle"), ProtocolWord("power")])
        #expect(!plain.has("--recursive"))

        let ended = try invocation([ProtocolWord("toggle"), ProtocolWord("--"), ProtocolWord("--recursive")])
        #expect(!ended.has("--recursive"))
        #expect(ended.arguments[0] == "--recursive")
    }

    @Test func aFlagTheCommandDoesNotHaveIsRefused() {
        #expect(throws: ProtocolError.self) {
            try invocation([ProtocolWord("get"), ProtocolWord("--recursive"), ProtocolWord("power")])
        }
    }
}
