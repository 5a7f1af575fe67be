import MenuCore
import Testing

/// A change prepared on a copy of the model, as the daemon splices a refresh on a
/// pool thread: the copy changes alone, and taking its state gives the model the
/// same rows and values as splicing the model itself would.
@Suite struct ModelCopyTests {
    private static func node(_ id: String, title: String) -> NodeSpec {
        NodeSpec(id: id, kind: .item, title: TitleTemplate(literal: title))
    }

    private static func model() -> MenuModel {
        let config = MenuConfig(
            file: "t.yaml",
            menus: [
                NodeSpec(
                    id: "net", kind: .group, title: TitleTemplate(literal: "Networks"), expanded: true,
                    childrenCommand: "list"),
                node("other", title: "Other"),
            ])
        return MenuModel(config: config.fillingChildren { _ in [.loadingRow] })
    }

    private static let children = [node("home", title: "Home"), node("cafe", title: "Cafe")]

    @Test func aCopyChangesAloneAndItsStateIsTakenWhole() throws {
        let model = Self.model()
        let before = model.rows().map(\.path)
        let revision = model.revision
        let copy = model.copy()
        let (change, _) = try copy.replaceChildren(of: "net", with: Self.children, filling: { _ in [] })
        // The model is as it was while the copy was spliced.
        #expect(model.rows().map(\.path) == before)
        #expect(model.revision == revision)

        let spliced = Self.model()
        let (expected, _) = try spliced.replaceChildren(of: "net", with: Self.children, filling: { _ in [] })
        model.exchangeState(with: copy)
        #expect(model.rows().map(\.path) == spliced.rows().map(\.path))
        #expect(model.revision == spliced.revision)
        #expect(change.nodeSplices == expected.nodeSplices)
        // The copy holds what the model had.
        #expect(copy.rows().map(\.path) == before)
    }
}
