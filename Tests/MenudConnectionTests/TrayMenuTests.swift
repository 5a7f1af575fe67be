import MenuCore
import Testing

@testable import menud

/// A menu's nodes as tray entries: each kind as its entry, and as deep as asked.
@Suite struct TrayMenuTests {
    @Test func eachKindIsItsEntry() throws {
        let model = try TrayFixture.model()
        let main = try model.entry("main")
        #expect(main.key == .node(path: "main"))
        #expect(
            main.labels == [
                "Wi-Fi", "Mode", "Volume: 5", "Big: 0", "Name: box", "Power off", "Sub", "Networks",
            ])

        let wifi = try #require(main.find("Wi-Fi"))
        #expect(wifi.toggle == .checkmark(on: false) && !wifi.isSubmenu && wifi.mnemonic == "w")

        let mode = try #require(main.find("Mode"))
        #expect(mode.isSubmenu && mode.labels == ["eco", "fast"])
        #expect(mode.children.map(\.toggle) == [.radio(on: false), .radio(on: true)])

        // A range of few steps: one radio entry each, its value's on.
        let volume = try #require(main.find("Volume: 5"))
        #expect(volume.isSubmenu && volume.labels == ["0", "5", "10"])
        #expect(volume.children.map(\.toggle) == [.radio(on: false), .radio(on: true), .radio(on: false)])
        #expect(volume.children[1].key == .rangeStep(path: "main/vol", value: "5"))

        // Too many steps: −, the value (a label), +.
        let big = try #require(main.find("Big: 0"))
        #expect(big.labels == ["−", "0", "+"])
        #expect(
            big.children.map(\.key) == [
                .rangeDown(path: "main/big"), .rangeValue(path: "main/big"), .rangeUp(path: "main/big"),
            ])
        #expect(big.children.map(\.enabled) == [true, false, true])

        // A confirm: item asks its question above Yes and No, as a label.
        let off = try #require(main.find("Power off"))
        #expect(off.isSubmenu && off.labels == ["Really?", "Yes", "No"])
        #expect(off.children[0].key == .question(path: "main/off") && !off.children[0].enabled)
    }

    @Test func entriesAreBuiltAsDeepAsAsked() throws {
        let model = try TrayFixture.model()
        let none = try model.entry("main/sub", depth: 0)
        #expect(none.isSubmenu && none.children.isEmpty)
        let one = try model.entry("main/sub", depth: 1)
        #expect(one.labels == ["Deep"] && one.children[0].children.isEmpty)
        let all = try model.entry("main/sub", depth: -1)
        #expect(all.children.first?.labels == ["Deeper"])
        // Any negative depth is all of it, and a depth past the leaves is too.
        #expect(try model.entry("main/sub", depth: Int32.min).children.first?.labels == ["Deeper"])
        #expect(try model.entry("main/sub", depth: Int32.max).children.first?.labels == ["Deeper"])
        // A range's and a question's own entries come at any depth: a click names them.
        #expect(try model.entry("main/vol", depth: 0).labels == ["0", "5", "10"])
        #expect(try model.entry("main/off", depth: 0).labels == ["Really?"])
    }

    @Test func aStaleValueSaysSo() throws {
        let model = try TrayFixture.model()
        _ = model.markStale([try model.node("main/name")])
        #expect(try model.entry("main/name").label == "Name: box (stale)")
    }

    @Test func rangeSteppingRoundsAsWrittenAndReachesAnyRange() {
        let tenths = RangeBounds(min: 0, max: 1, step: 0.1)
        #expect(TrayMenu.stepValue(tenths, 3) == 0.3)
        #expect(TrayMenu.nudge(tenths) == 0.1)
        // No step: a tenth of the range, which a range wider than a Double still has.
        #expect(TrayMenu.nudge(RangeBounds(min: 0, max: 50, step: 0)) == 5)
        #expect(
            TrayMenu.nudge(
                RangeBounds(min: -Double.greatestFiniteMagnitude, max: .greatestFiniteMagnitude, step: 0)
            ).isFinite)
        #expect(TrayMenu.decimal(1e300) == 1e300)
    }
}
