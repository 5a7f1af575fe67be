import MenuProtocol
import PropertyBased
import Testing

@testable import MenuPopup

/// A reply's rows read path first: each path is the one the whole record has,
/// whatever its fields hold, and lines that are no row records are left out.
@Suite struct RowLinesTests {
    static let pieces = ["a", "-", "é", "\t", "\n", "\\", "\\t", "row", "", "日本", "\r", " "]

    @Test func aPathReadAloneIsTheRecordsPath() async {
        let text = Gen.int(in: 0...(Self.pieces.count - 1)).array(of: 0...5).map {
            $0.map { Self.pieces[$0] }.joined()
        }
        await propertyCheck(count: 200, input: zip(text, text, text)) { path, title, value in
            let line = ProtocolFields.record([
                RowRecord.tag, "3", "1", "item", "-", "1/2", path, value, title, "", "",
            ])
            let lines = RowLines(["ok", line, "focus\tm\tx", line])
            #expect(lines.paths == [path, path])
            #expect(lines.count == 2)
            #expect(lines.record(0)?.path == path)
            #expect(lines.record(1)?.title == title)
        }
    }

    @Test func aFieldIsReadWithoutTheOthers() {
        #expect(ProtocolFields.field(0, of: "a\tb\\tc\td") == "a")
        #expect(ProtocolFields.field(1, of: "a\tb\\tc\td") == "b\tc")
        #expect(ProtocolFields.field(2, of: "a\tb\\tc\td") == "d")
        #expect(ProtocolFields.field(3, of: "a\tb\\tc\td") == nil)
        #expect(ProtocolFields.field(1, of: "a\t") == "")
        #expect(RowRecord.path(ofLine: "rows\t1\t2\t3\t4\t5\tp") == nil)
    }
}
