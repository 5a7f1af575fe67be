import PropertyBased
import Testing

@testable import MenuCore

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

@Suite struct ProtocolFieldsTests {
    @Test func escapesSeparatorsAndBackslash() {
        #expect(ProtocolFields.escape("a\tb\nc\\d\re") == #"a\tb\nc\\d\re"#)
        #expect(ProtocolFields.record(["row", "Tab\there", ""]) == "row\tTab\\there\t")
    }

    /// Fields are copied from the strings' own bytes; strings of over 15 bytes live on
    /// the heap rather than inline, and both kinds must come out whole.
    @Test func plainRecordsKeepEveryByte() {
        let long = String(repeating: "ü", count: 20)
        #expect(ProtocolFields.record(["row", long, "", "x"]) == "row\t" + long + "\t\tx")
        #expect(ProtocolFields.record([]) == "")
        #expect(ProtocolFields.record([""]) == "")
    }

    @Test func fieldsRoundTrip() async {
        let alphabet: [String] = ["a", "\t", "\n", "\\", "t", "n", "\r", "ü", " "]
        await propertyCheck(
            count: 500, input: Gen.int(in: 0...(alphabet.count - 1)).array(of: 0...6).array(of: 1...5)
        ) { raw in
            let fields = raw.map { $0.map { alphabet[$0] }.joined() }
            let line = ProtocolFields.record(fields)
            #expect(!line.contains("\n"))
            #expect(ProtocolFields.fields(of: line) == fields)
        }
    }
}

@Suite struct RowRecordTests {
    @Test func rowRoundTripsThroughItsLine() {
        let row = Row(
            index: nil, path: "settings/theme", depth: 1, kind: .choice, title: "Theme:\tDark", subtitle: nil,
            icon: "palette", expanded: false, value: "Dark", selected: nil, position: 1, siblings: 3,
            children: 2,
            exec: nil)
        let record = RowRecord(row)
        #expect(
            record.line == "row\t-\t1\tchoice\tcollapsed\t2/3\tsettings/theme\tDark\tTheme:\\tDark\t\tpalette"
        )
        #expect(RowRecord(fields: ProtocolFields.fields(of: record.line)) == record)
    }

    @Test func optionStateIsSelection() {
        let row = Row(
            index: 4, path: "t/Dark", depth: 1, kind: .option, title: "Dark", subtitle: nil, icon: nil,
            expanded: nil, value: nil, selected: true, position: 0, siblings: 2, children: 0, exec: nil)
        #expect(RowRecord(row).state == "selected")
    }

    @Test func rejectsOtherRecords() {
        #expect(RowRecord(fields: ["splice", "0", "1", "2"]) == nil)
    }
}

@Suite struct RangeRowRecordTests {
    @Test func rangeRowsCarryTheirBounds() throws {
        let model = MenuFixtures.model([MenuFixtures.range("volume", 0, 150, step: 5, value: 30)])
        let record = RowRecord(try model.get("volume"))
        #expect(record.line.hasSuffix("\t0\t150\t5"))
        #expect(RowRecord(fields: ProtocolFields.fields(of: record.line)) == record)
        #expect(record.bounds?.percentage(of: 30) == 20)
    }
}
