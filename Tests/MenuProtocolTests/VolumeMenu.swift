@testable import MenuCore

/// A one-node menu: the range `volume`, 0 to 150 in steps of 5, at 30. Its row is the
/// longest record kind, the one that carries bounds.
enum VolumeMenu {
    static var model: MenuModel {
        let volume = NodeSpec(
            id: "volume", kind: .range, title: TitleTemplate(parsing: "volume {value}"),
            rule: .range(min: 0, max: 150, step: 5), value: .number(30))
        return MenuModel(config: MenuConfig(file: "test.yaml", menus: [volume]))
    }
}
