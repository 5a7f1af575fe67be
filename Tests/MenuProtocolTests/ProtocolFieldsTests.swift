import MenuProtocol
import PropertyBased
import Testing

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
