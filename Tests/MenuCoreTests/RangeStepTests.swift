import TestSupport
import Testing

@testable import MenuCore

/// `step`: a range node moved relative to its value, clamped to its bounds and
/// snapped to its step, as one change like `set`'s.
@Suite struct RangeStepTests {
    /// levels: volume 0...100 step 5 at 50, top 0...99 step 5 at 90 (99 is off the
    /// step), fine 0...1 step 0.1 at 0.2, free 0...100 without a step at 50, low -20...20
    /// step 5 at 0; wifi a toggle.
    static func model() -> MenuModel {
        MenuFixtures.model([
            MenuFixtures.group(
                "levels",
                [
                    MenuFixtures.range("volume", 0, 100, step: 5, value: 50),
                    MenuFixtures.range("top", 0, 99, step: 5, value: 90),
                    MenuFixtures.range("fine", 0, 1, step: 0.1, value: 0.2),
                    MenuFixtures.range("free", 0, 100, step: 0, value: 50),
                    MenuFixtures.range("low", -20, 20, step: 5, value: 0),
                    MenuFixtures.toggle("wifi"),
                ])
        ])
    }

    private func value(_ m: MenuModel, _ path: String) -> Value? { m.value(path: path) }

    @Test func withoutADeltaItMovesOneStepUp() throws {
        let m = Self.model()
        let change = try m.step("levels/volume")
        #expect(m.paths(of: change.valueChanged) == ["levels/volume"])
        #expect(change.splices.isEmpty && change.expansionChanged.isEmpty)
        #expect(value(m, "levels/volume") == .number(55))
        #expect(try m.get("levels/volume").title == "volume 55")
    }

    @Test func aSignedDeltaAddsOrSubtractsInTheNodesUnits() throws {
        let m = Self.model()
        _ = try m.step("levels/volume", "+10")
        #expect(value(m, "levels/volume") == .number(60))
        _ = try m.step("levels/volume", "-25")
        #expect(value(m, "levels/volume") == .number(35))
        _ = try m.step("levels/low", "-15")
        #expect(value(m, "levels/low") == .number(-15))
        _ = try m.step("levels/free", "+0.25")
        #expect(value(m, "levels/free") == .number(50.25))
    }

    @Test func theResultIsClampedToTheBounds() throws {
        let m = Self.model()
        _ = try m.step("levels/volume", "+500")
        #expect(value(m, "levels/volume") == .number(100))
        _ = try m.step("levels/volume", "-1e9")
        #expect(value(m, "levels/volume") == .number(0))
        _ = try m.step("levels/low", "-100")
        #expect(value(m, "levels/low") == .number(-20))
    }

    /// Off the step, the sum goes to the nearest step from min (a half step up), and a
    /// max off the step gives way to the last step under it.
    @Test func theResultIsSnappedToTheNearestStepWithinTheBounds() throws {
        let m = Self.model()
        _ = try m.step("levels/volume", "+7")
        #expect(value(m, "levels/volume") == .number(55))
        _ = try m.step("levels/volume", "+8")
        #expect(value(m, "levels/volume") == .number(65))
        _ = try m.step("levels/volume", "-2.5")
        #expect(value(m, "levels/volume") == .number(65))
        // Under half a step there is no step to go to.
        #expect(try m.step("levels/volume", "+2").isEmpty)
        #expect(value(m, "levels/volume") == .number(65))

        _ = try m.step("levels/top", "+8")
        #expect(value(m, "levels/top") == .number(95))
        #expect(try m.step("levels/top", "+100").isEmpty)
        #expect(value(m, "levels/top") == .number(95))
    }

    /// Decimal steps land on the decimals a user would type, and the rule takes them.
    @Test func decimalStepsGiveTheirOwnDecimals() throws {
        let m = Self.model()
        _ = try m.step("levels/fine")
        #expect(value(m, "levels/fine") == .number(0.3))
        #expect(try m.get("levels/fine").value == "0.3")
        for _ in 0..<10 { _ = try m.step("levels/fine") }
        #expect(value(m, "levels/fine") == .number(1))
        _ = try m.step("levels/fine", "-0.7")
        #expect(try m.get("levels/fine").value == "0.3")
    }

    /// A range without a step moves by 1% of its span when no delta is given.
    @Test func aRangeWithoutAStepMovesByOnePercent() throws {
        let m = Self.model()
        _ = try m.step("levels/free")
        #expect(value(m, "levels/free") == .number(51))
        _ = try m.step("levels/free", "+0.1")
        _ = try m.step("levels/free", "+0.2")
        #expect(try m.get("levels/free").value == "51.3")
    }

    @Test func aStepAtABoundChangesNothing() throws {
        let m = Self.model()
        _ = try m.set("levels/volume", "100")
        #expect(try m.step("levels/volume").isEmpty)
        #expect(try m.step("levels/volume", "+5").isEmpty)
        _ = try m.set("levels/volume", "0")
        #expect(try m.step("levels/volume", "-5").isEmpty)
        #expect(value(m, "levels/volume") == .number(0))
    }

    @Test func aDeltaWithoutItsSignIsRefused() throws {
        let m = Self.model()
        #expect(
            throws: MenuError.invalidValue(
                path: "levels/volume", reason: "'5' has no sign: write +5 to add or -5 to subtract")
        ) { try m.step("levels/volume", "5") }
        for delta in ["loud", "+", "+five", "++5", "+-5", "+inf", "+0x10", ""] {
            #expect(throws: MenuError.self, "\(delta)") { try m.step("levels/volume", delta) }
        }
        #expect(value(m, "levels/volume") == .number(50))
    }

    @Test func onlyARangeSteps() throws {
        let m = Self.model()
        #expect(throws: MenuError.notARange("levels/wifi", kind: .toggle)) {
            try m.step("levels/wifi", "+1")
        }
        #expect(throws: MenuError.notARange("levels", kind: .group)) { try m.step("levels") }
        #expect(throws: MenuError.noSuchNode("levels/nothing")) { try m.step("levels/nothing") }
        // The kind is named, and a value node's message points to set.
        #expect(MenuError.notARange("levels/wifi", kind: .toggle).message.hasSuffix("not a range: use set"))
        #expect(
            MenuError.notARange("apps/term", kind: .item).message == "'apps/term' is an item, not a range")
    }

    /// Inside a batch a step is undone with the rest when the batch fails.
    @Test func aStepInAFailedBatchIsUndone() throws {
        let m = Self.model()
        #expect(throws: MenuError.self) {
            _ = try m.batch { m in
                _ = try m.step("levels/volume", "+20")
                _ = try m.step("levels/wifi")
            }
        }
        #expect(value(m, "levels/volume") == .number(50))
        let change = try m.batch { m in
            _ = try m.step("levels/volume", "+20")
            _ = try m.step("levels/volume", "-5")
        }
        #expect(m.paths(of: change.valueChanged) == ["levels/volume"])
        #expect(value(m, "levels/volume") == .number(65))
    }

    /// Whatever the value and delta, a step ends on a value the rule accepts.
    @Test(arguments: [-1e9, -37, -5, -2.5, -0.1, 0, 0.1, 2.5, 3, 5, 13, 1e9])
    func everyStepEndsOnAnAcceptedValue(amount: Double) throws {
        let rules: [ValueRule] = [
            .range(min: 0, max: 100, step: 5), .range(min: 0, max: 99, step: 5),
            .range(min: 0, max: 1, step: 0.1), .range(min: -3, max: 7, step: 0.25),
            .range(min: 0.5, max: 2, step: 0.3), .range(min: 0, max: 100, step: 0),
            .range(min: -1e308, max: 1e308, step: 0), .range(min: 0, max: 1e20, step: 1),
        ]
        for rule in rules {
            guard case .range(let lo, let hi, let step) = rule else { continue }
            var starts = [lo, hi, (lo / 2 + hi / 2)]
            if step > 0 { starts.append(lo + step) }
            for start in starts where rule.accepts(.number(start)) {
                for delta in [RangeDelta.amount(amount), .steps(1), .steps(-1)] {
                    let next = try #require(rule.stepped(start, by: delta))
                    #expect(rule.accepts(.number(next)), "\(rule) from \(start) by \(delta): \(next)")
                }
            }
        }
    }

    /// `+5` on a range is a step, not the value 5: `set` says so. `-5` stays a value.
    @Test func setRefusesARelativeValue() throws {
        let m = Self.model()
        #expect(
            throws: MenuError.invalidValue(
                path: "levels/low", reason: "'+5' is relative; use step levels/low +5")
        ) { try m.set("levels/low", "+5") }
        #expect(value(m, "levels/low") == .number(0))
        _ = try m.set("levels/low", "-5")
        #expect(value(m, "levels/low") == .number(-5))
        // Text is text: a leading + is only relative on a range.
        let desktop = MenuFixtures.desktop
        _ = try desktop.set("settings/first", "+5")
        #expect(desktop.value(path: "settings/first") == .text("+5"))
    }

    @Test func increaseAndDecreaseStepTheFocusedRangeOnly() throws {
        let m = Self.model()
        var cursors = FocusCursors()
        _ = try cursors.focus(on: "levels/volume", model: m)
        let up = try cursors.move(.increase, in: nil, model: m)
        #expect(up.focus.path == "levels/volume")
        #expect(m.paths(of: up.change.valueChanged) == ["levels/volume"])
        #expect(value(m, "levels/volume") == .number(55))
        _ = try cursors.move(.decrease, in: nil, model: m)
        _ = try cursors.move(.decrease, in: nil, model: m)
        #expect(value(m, "levels/volume") == .number(45))

        _ = try m.set("levels/volume", "100")
        #expect(try cursors.move(.increase, in: nil, model: m).change.isEmpty)

        // Anywhere else they do nothing, and answer the focus as it is.
        for path in ["levels/wifi", "levels"] {
            _ = try cursors.focus(on: path, model: m)
            for move in [NavMove.increase, .decrease] {
                let outcome = try cursors.move(move, in: nil, model: m)
                #expect(outcome.focus.path == path)
                #expect(outcome.change.isEmpty)
            }
        }
        #expect(value(m, "levels/wifi") == .toggle(false))
    }
}
