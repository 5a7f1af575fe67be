import MenuProtocol
import Testing

@testable import MenuCore

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

    /// The key is field 16, after empty fields 12 to 15 on a row that has none of
    /// them, and reads back; a row without a key ends as it always did.
    @Test func theKeyIsTheSixteenthField() {
        var row = Row(
            index: 0, path: "apps", depth: 0, kind: .group, title: "Apps", subtitle: nil, icon: nil,
            expanded: false, value: nil, selected: nil, position: 0, siblings: 1, children: 2, exec: nil)
        #expect(RowRecord(row).line == "row\t0\t0\tgroup\tcollapsed\t1/1\tapps\t\tApps\t\t")
        row.key = "a"
        let record = RowRecord(row)
        #expect(record.line == "row\t0\t0\tgroup\tcollapsed\t1/1\tapps\t\tApps\t\t\t\t\t\t\ta")
        #expect(record.fields.count == 16)
        #expect(RowRecord(fields: record.fields) == record)
        row.stale = true
        #expect(RowRecord(row).line.hasSuffix("\t\t\t\tstale\ta"))
        // Why, and since when, after the key; an empty key when there is none.
        row.staleReason = StaleReason("wpctl: not found", since: "2026-11-28T15:47:25Z")
        let why = RowRecord(row)
        #expect(why.line.hasSuffix("\tstale\ta\twpctl: not found\t2026-11-28T15:47:25Z"))
        #expect(RowRecord(fields: why.fields) == why)
        row.key = nil
        #expect(RowRecord(row).line.hasSuffix("\t\t\t\tstale\t\twpctl: not found\t2026-11-28T15:47:25Z"))
        // Not stale: no reason is written.
        row.stale = false
        #expect(RowRecord(row).line == "row\t0\t0\tgroup\tcollapsed\t1/1\tapps\t\tApps\t\t")
    }

    @Test func rejectsOtherRecords() {
        #expect(RowRecord(fields: ["splice", "0", "1", "2"]) == nil)
    }
}

@Suite struct RangeRowRecordTests {
    @Test func rangeRowsCarryTheirBounds() throws {
        let model = VolumeMenu.model
        let record = RowRecord(try model.get("volume"))
        // The bounds, an empty `stale` and the key the title gave.
        #expect(record.line.hasSuffix("\t0\t150\t5\t\tv"))
        #expect(RowRecord(fields: ProtocolFields.fields(of: record.line)) == record)
        #expect(record.bounds?.percentage(of: 30) == 20)
    }

    /// max − min overflows to infinity here; the percentage is still one.
    @Test func aRangeWiderThanADoubleHasPercentages() {
        let wide = RangeBounds(min: -1e308, max: 1e308, step: 0)
        #expect(
            [wide.percentage(of: -1e308), wide.percentage(of: 0), wide.percentage(of: 1e308)] == [0, 50, 100])
    }
}
