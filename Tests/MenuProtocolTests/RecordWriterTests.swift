import MenuCore
import MenuProtocol
import PropertyBased
import Testing

@Suite struct RecordWriterTests {
    /// Integers are written digit by digit, not through `String(_:)`; both must agree,
    /// at the edges of the fast path too.
    @Test func integersReadAsTheirDecimalText() async {
        let edges = [9_999_999_999, 10_000_000_000, Int.max, Int.min, -9_999_999_999]
        // The small ones each, across the one- and two-digit paths and past them.
        for n in Array(-1000...1000) + edges {
            var writer = RecordWriter()
            writer.field(n)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == String(n))
        }
        await propertyCheck(count: 500, input: Gen.int(in: Int.min...Int.max)) { n in
            var writer = RecordWriter()
            writer.field(n)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == String(n))
        }
    }

    /// Numbers are written as ``Value/format(_:)`` prints them, whole ones digit by digit.
    @Test func numbersReadAsValueFormatPrintsThem() {
        for n in [0, -0.0, 5, -12, 0.5, 1e15, 1e16, -2.25, 1e-9, 123_456_789_012.0] {
            var writer = RecordWriter()
            writer.field(n)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == Value.format(n), "\(n)")
        }
        var writer = RecordWriter()
        writer.field(2, UInt8(ascii: "/"), 13)
        writer.field(-1, UInt8(ascii: ":"), 0)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "2/13\t-1:0")
    }

    @Test func linesAreTabSeparatedAndNewlineEnded() {
        var writer = RecordWriter()
        writer.field("splice")
        writer.field(4)
        writer.field(0)
        writer.field(4)
        writer.endLine()
        writer.record(["expansion", "a\tb", "expanded"])
        #expect(
            String(decoding: writer.bytes, as: UTF8.self) == "splice\t4\t0\t4\nexpansion\ta\\tb\texpanded\n")
    }

    @Test func aRowWrittenInPlaceIsItsLine() throws {
        let model = VolumeMenu.model
        let record = RowRecord(try model.get("volume"))
        var writer = RecordWriter()
        record.write(to: &writer)
        record.write(to: &writer)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == record.line + "\n" + record.line + "\n")
        // Through the bounds, then an empty `stale` and the key.
        #expect(record.fields.count == 16)
    }
}
