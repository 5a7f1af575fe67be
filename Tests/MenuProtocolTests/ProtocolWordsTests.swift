import MenuProtocol
import PropertyBased
import Testing

@Suite struct ProtocolWordsTests {
    private func texts(_ line: String) throws -> [String] { try ProtocolWords.split(line).map(\.text) }

    @Test func splitsOnSpacesAndTabs() throws {
        #expect(try texts("get  a/b\tc") == ["get", "a/b", "c"])
        #expect(try texts("   ") == [])
        #expect(try texts("") == [])
    }

    @Test func quotesGroupAndBackslashEscapes() throws {
        #expect(try texts(#"set a "two words""#) == ["set", "a", "two words"])
        #expect(try texts(#"set a "say \"hi\" \\ bye""#) == ["set", "a", #"say "hi" \ bye"#])
        #expect(try texts(#"set a """#) == ["set", "a", ""])
        #expect(try texts(#"x "\q""#) == ["x", "q"])
    }

    @Test func unquotedWordsKeepBackslashes() throws {
        #expect(try texts(#"set a b\c"#) == ["set", "a", #"b\c"#])
    }

    @Test func rejectsUnbalancedAndStrayQuotes() {
        #expect(throws: ProtocolWords.SplitError.unbalancedQuote(column: 7)) {
            try ProtocolWords.split(#"set a "open"#)
        }
        #expect(throws: ProtocolWords.SplitError.unbalancedQuote(column: 1)) {
            try ProtocolWords.split(#""ends in \""#)
        }
        #expect(throws: ProtocolWords.SplitError.strayQuote(column: 8)) {
            try ProtocolWords.split(#"set a b"c""#)
        }
        #expect(throws: ProtocolWords.SplitError.junkAfterQuote(column: 8)) {
            try ProtocolWords.split(#"set "a"b"#)
        }
    }

    @Test func onlyUnquotedDoubleDashWordsAreFlags() throws {
        let words = try ProtocolWords.split(#"expand --recursive "--recursive" -x"#)
        #expect(words.map(\.isFlag) == [false, true, false, false])
    }

    @Test func quoteLeavesPlainWordsBare() {
        #expect(ProtocolWords.quote("settings/wifi") == "settings/wifi")
        #expect(ProtocolWords.quote("Grüße") == "Grüße")
        #expect(ProtocolWords.quote("") == #""""#)
        #expect(ProtocolWords.quote("a b") == #""a b""#)
        #expect(ProtocolWords.quote("-5") == #""-5""#)
        #expect(ProtocolWords.quote(#"a"b\c"#) == #""a\"b\\c""#)
    }

    @Test func requestQuotesArgumentsButNotFlags() {
        #expect(
            ProtocolWords.request("expand", flags: ["--recursive"], arguments: ["a b"])
                == #"expand --recursive "a b""#)
    }

    @Test func canEncodeRejectsOnlyNewlines() {
        #expect(ProtocolWords.canEncode("tab\there\r"))
        #expect(!ProtocolWords.canEncode("two\nlines"))
    }

    /// Any arguments without newlines survive quote → split unchanged, as arguments.
    @Test func quotingRoundTrips() async {
        let alphabet: [String] = ["a", "Z", " ", "\t", "\"", "\\", "-", "é", "🙂", "/", "\r", "x"]
        await propertyCheck(
            count: 500, input: Gen.int(in: 0...(alphabet.count - 1)).array(of: 0...8).array(of: 0...5)
        ) { words in
            let arguments = words.map { $0.map { alphabet[$0] }.joined() }
            let line = ProtocolWords.request("cmd", arguments: arguments)
            let split = try ProtocolWords.split(line)
            #expect(split.first?.text == "cmd")
            #expect(split.dropFirst().map(\.text) == arguments)
            #expect(split.dropFirst().allSatisfy { !$0.isFlag })
        }
    }
}
