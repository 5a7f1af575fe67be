import MenuCore
import Testing

/// Values read from the system: the rule's lenient reading, and the stale mark.
@Suite struct SystemReadingTests {
    private let volume = ValueRule.range(min: 0, max: 100, step: 5)

    @Test func aRangeTakesPercentsKeepsOffStepAndClampsOutOfBounds() throws {
        #expect(try volume.reading(" 40%\n").get() == SystemReading(value: .number(40)))
        #expect(try volume.reading("42").get() == SystemReading(value: .number(42)))
        #expect(try volume.reading("150").get() == SystemReading(value: .number(100), clampedFrom: 150))
        #expect(try volume.reading("-3").get() == SystemReading(value: .number(0), clampedFrom: -3))
        for bad in ["", "loud", "40%%", "0x20", "nan", "inf"] {
            #expect((try? volume.reading(bad).get()) == nil, "\(bad)")
        }
    }

    @Test func aToggleAndAChoiceTakeTheConfigsSpellings() throws {
        #expect(try ValueRule.toggle.reading("Yes").get().value == .toggle(true))
        #expect(try ValueRule.toggle.reading(" off ").get().value == .toggle(false))
        #expect((try? ValueRule.toggle.reading("1").get()) == nil)
        let output = ValueRule.choice(options: ["spk", "hp"])
        let titles = [(id: "spk", title: "Speakers"), (id: "hp", title: "Headphones")]
        #expect(try output.reading("hp", options: titles).get().value == .choice("hp"))
        #expect(try output.reading("Speakers", options: titles).get().value == .choice("spk"))
        #expect(try output.reading("headphones", options: titles).get().value == .choice("hp"))
        #expect((try? output.reading("HDMI", options: titles).get()) == nil)
    }

    @Test func aRefusedReadingKeepsTheValueAndMarksTheNodeStale() throws {
        let model = MenuFixtures.model([
            MenuFixtures.range("vol", 0, 100, step: 5, value: 40), MenuFixtures.item("run"),
        ])
        let vol = try model.node("vol")
        #expect(model.markStale([vol]).valueChanged == [vol])
        #expect(model.markStale([vol]).isEmpty)
        #expect(model.row(of: vol).stale)

        // The same value, now known: the change names the node for its mark.
        let (confirmed, outcome) = try model.read("40", into: vol)
        #expect(confirmed.valueChanged == [vol] && outcome == .applied)
        #expect(!model.row(of: vol).stale)
        // Unchanged and not stale: nothing.
        #expect(try model.read("40", into: vol).0.isEmpty)

        let (refused, why) = try model.read("loud", into: vol)
        #expect(refused.valueChanged == [vol])
        guard case .refused = why else { throw ReadingFailure(outcome: why) }
        #expect(model.value(of: vol) == .number(40))
        #expect(model.isStale(vol))

        let (clamped, note) = try model.read("120", into: vol)
        #expect(clamped.valueChanged == [vol] && note == .clamped(from: 120))
        #expect(model.value(of: vol) == .number(100))
        #expect(!model.isStale(vol))
        #expect(throws: MenuError.notAValue("run")) { try model.read("1", into: try model.node("run")) }
    }

    private struct ReadingFailure: Error { var outcome: ReadingOutcome }
}
