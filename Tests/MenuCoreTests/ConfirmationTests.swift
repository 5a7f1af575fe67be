import MenuConfigLoading
import TestSupport
import Testing

@testable import MenuCore

/// Items with `confirm:`: served as a group of Yes and No, so that no front end needs
/// to know about them, and only Yes hands back the command.
@Suite struct ConfirmationTests {
    static let yaml = """
        menu:
          - id: power
            title: Power
            expanded: true
            exclusive: true
            children:
              - {id: lock, title: Lock, exec: lock-it}
              - {id: off, title: Shut down, exec: poweroff, confirm: Power off now?}
              - {id: reboot, title: Reboot, exec: reboot, confirm: true}
              - {id: plain, title: Plain, exec: plain, confirm: false}
              - {id: more, title: More, children: [{id: a, title: A}]}
        """

    func model() throws -> MenuModel {
        MenuModel(config: try ConfigLoader.load(text: Self.yaml, file: "t.yaml").get())
    }

    func paths(_ m: MenuModel) throws -> [String] { m.rows().map(\.path) }

    @Test func aConfirmingItemIsAClosedGroupOfYesAndNo() throws {
        let m = try model()
        #expect(
            try paths(m) == ["power", "power/lock", "power/off", "power/reboot", "power/plain", "power/more"])
        let off = try m.get("power/off")
        #expect(off.kind == .group && off.expanded == false && off.children == 2)
        #expect(off.title == "Shut down")
        #expect(try m.get("power/plain").kind == .item, "confirm: false asks nothing")
        let tree = try m.tree(under: "power/off")
        #expect(tree.map(\.path) == ["power/off", "power/off/yes", "power/off/no"])
        #expect(tree.dropFirst().map(\.title) == ["Yes", "No"])
        #expect(tree.dropFirst().allSatisfy { $0.kind == .item && $0.index == nil })
    }

    @Test func activatingTheItemOpensTheQuestionInsteadOfRunning() throws {
        let m = try model()
        let (change, activation) = try m.activate("power/off")
        #expect(activation == .toggled)
        #expect(change.splices == [Splice(start: 3, removed: 0, inserted: 2)])
        #expect(m.paths(of: change.expansionChanged) == ["power/off"])
        let open = try m.get("power/off")
        #expect(open.expanded == true)
        #expect(open.title == "Power off now?", "an open confirmation's row is its question")
        #expect(try paths(m).contains("power/off/yes"))
        // confirm: true asks the title.
        _ = try m.activate("power/reboot")
        #expect(try m.get("power/reboot").title == "Reboot?")
    }

    @Test func yesHandsBackTheCommandAndClosesTheQuestion() throws {
        let m = try model()
        _ = try m.activate("power/off")
        let (change, activation) = try m.activate("power/off/yes")
        #expect(activation == .run(command: "poweroff"))
        #expect(m.paths(of: change.expansionChanged) == ["power/off"])
        #expect(change.splices == [Splice(start: 3, removed: 2, inserted: 0)])
        #expect(try m.get("power/off").title == "Shut down")
    }

    @Test func noRunsNothingAndClosesTheQuestion() throws {
        let m = try model()
        _ = try m.activate("power/off")
        let (change, activation) = try m.activate("power/off/no")
        #expect(activation == .declined)
        #expect(m.paths(of: change.expansionChanged) == ["power/off"])
        #expect(try !paths(m).contains("power/off/no"))
    }

    /// Answering a question that is not open (a script that knows the path) still
    /// answers it: the answer is what counts, not what is shown.
    @Test func anAnswerWorksWithoutOpeningFirst() throws {
        let m = try model()
        #expect(try m.activate("power/reboot/yes").1 == .run(command: "reboot"))
        #expect(try m.activate("power/reboot/no").1 == .declined)
    }

    @Test func openingEverythingAsksNothing() throws {
        let m = try model()
        _ = try m.expandAll()
        #expect(try !paths(m).contains("power/off/yes"))
        _ = try m.expand("power", recursive: true)
        #expect(try !paths(m).contains("power/off/yes"))
        // In the exclusive group the branch opened is More, not a question.
        #expect(m.isExpanded(path: "power/more"))
    }

    @Test func anOpenQuestionIsNotSavedInTheState() throws {
        let m = try model()
        _ = try m.activate("power/off")
        #expect(!m.exportState().contains { $0.path == "power/off" })
    }

    /// A `children-cmd`'s output goes through specs, which must keep the question.
    @Test func specsKeepTheConfirmation() throws {
        let nodes = try ConfigLoader.loadNodes(
            bytes: Array("- {id: off, title: Off, exec: poweroff, confirm: Sure?}\n".utf8), file: "cmd"
        ).get()
        #expect(nodes.map(\.kind) == [.item])
        #expect(nodes.first?.confirm == "Sure?")
        #expect(nodes.first?.children.isEmpty == true)
        let m = MenuFixtures.model([MenuFixtures.group("g", nodes)])
        _ = try m.expand("g")
        _ = try m.activate("g/off")
        #expect(try m.get("g/off").title == "Sure?")
        #expect(try m.activate("g/off/yes").1 == .run(command: "poweroff"))
    }

    /// Spliced in as a group's children, the question's nodes move with the rest.
    @Test func aSpliceKeepsTheConfirmationsAfterIt() throws {
        let m = MenuFixtures.model([
            MenuFixtures.group("dyn", [MenuFixtures.item("loading")]),
            NodeSpec(
                id: "off", kind: .item, title: TitleTemplate(literal: "Off"), exec: "poweroff", confirm: ""),
        ])
        _ = try m.replaceChildren(
            of: "dyn", with: [MenuFixtures.item("a"), MenuFixtures.item("b")], filling: { _ in [] })
        #expect(try m.activate("off/yes").1 == .run(command: "poweroff"))
        _ = try m.activate("off")
        #expect(try m.get("off").title == "Off?")
    }

    @Test func theExampleAsksBeforeRebootingOrPoweringOff() throws {
        let m = MenuModel(config: try ConfigLoader.load(text: BuiltinMenu.yaml, file: BuiltinMenu.file).get())
        for path in ["power/reboot", "power/shutdown"] {
            let (_, activation) = try m.activate(path)
            #expect(activation == .toggled, "\(path) runs without asking")
        }
        #expect(try m.activate("power/shutdown/yes").1 == .run(command: "systemctl poweroff"))
        #expect(try m.activate("power/reboot/no").1 == .declined)
    }
}
