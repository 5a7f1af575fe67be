import MenuCore
import Testing

@testable import menud

/// What a click or a submenu shown in a tray does, as the command that does it.
@Suite struct TrayActionTests {
    private func node(_ path: String, _ model: MenuModel) -> Int { model.tree.node(at: path) ?? -1 }

    @Test func aClickIsTheCommandOfItsEntry() throws {
        let model = try TrayFixture.model()
        #expect(
            TrayAction.click(.node(path: "main/wifi"), in: model) == .activate(node: node("main/wifi", model))
        )
        #expect(
            TrayAction.click(.node(path: "main/mode/eco"), in: model)
                == .activate(node: node("main/mode/eco", model)))
        #expect(
            TrayAction.click(.node(path: "main/sub/deep/deeper"), in: model)
                == .activate(node: node("main/sub/deep/deeper", model)))
        #expect(
            TrayAction.click(.rangeStep(path: "main/vol", value: "10"), in: model)
                == .set(node: node("main/vol", model), value: "10"))
        // Submenus and labels do nothing, and neither does a node that is gone.
        for key: TrayEntryKey in [
            .node(path: "main/sub"), .node(path: "main/mode"), .node(path: "main/vol"),
            .node(path: "main/name"),
            .rangeValue(path: "main/big"), .question(path: "main/off"), .node(path: "main/gone"),
        ] {
            #expect(TrayAction.click(key, in: model) == nil, "\(key)")
        }
    }

    @Test func minusAndPlusMoveByAStepWithinTheBounds() throws {
        let model = try TrayFixture.model()
        #expect(
            TrayAction.click(.rangeUp(path: "main/big"), in: model)
                == .set(node: node("main/big", model), value: "1"))
        // Already at the minimum: it stays there.
        #expect(
            TrayAction.click(.rangeDown(path: "main/big"), in: model)
                == .set(node: node("main/big", model), value: "0"))
        _ = try model.set("main/big", "1000")
        #expect(
            TrayAction.click(.rangeUp(path: "main/big"), in: model)
                == .set(node: node("main/big", model), value: "1000"))
        #expect(
            TrayAction.click(.rangeDown(path: "main/big"), in: model)
                == .set(node: node("main/big", model), value: "999"))
    }

    @Test func showingRefreshesOnlyAChildrenCommandGroup() throws {
        let model = try TrayFixture.model()
        #expect(
            TrayAction.show(.node(path: "main/nets"), in: model) == .refresh(node: node("main/nets", model)))
        #expect(TrayAction.show(.node(path: "main/sub"), in: model) == nil)
        #expect(TrayAction.show(.node(path: "main"), in: model) == nil)
        #expect(TrayAction.show(.rangeValue(path: "main/big"), in: model) == nil)
    }
}
