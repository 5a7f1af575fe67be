import MenuCore

/// Small trees built in code, so model tests do not depend on the YAML loader.
enum MenuFixtures {
    static func group(
        _ id: String, exclusive: Bool = false, expanded: Bool = false, _ children: [NodeSpec] = []
    ) -> NodeSpec {
        NodeSpec(
            id: id, kind: .group, title: TitleTemplate(literal: id), children: children,
            expanded: expanded, exclusive: exclusive)
    }

    static func item(_ id: String, exec: String? = nil) -> NodeSpec {
        NodeSpec(id: id, kind: .item, title: TitleTemplate(literal: id), exec: exec)
    }

    static func toggle(_ id: String, on: Bool = false) -> NodeSpec {
        NodeSpec(id: id, kind: .toggle, title: TitleTemplate(literal: id), rule: .toggle, value: .toggle(on))
    }

    static func choice(_ id: String, _ options: [String], value: String? = nil, title: String? = nil)
        -> NodeSpec
    {
        NodeSpec(
            id: id, kind: .choice, title: TitleTemplate(parsing: title ?? id),
            children: options.map { NodeSpec(id: $0, kind: .option, title: TitleTemplate(literal: $0)) },
            rule: .choice(options: options), value: .choice(value ?? options[0]))
    }

    static func range(_ id: String, _ lo: Double, _ hi: Double, step: Double, value: Double) -> NodeSpec {
        NodeSpec(
            id: id, kind: .range, title: TitleTemplate(parsing: "\(id) {value}"),
            rule: .range(min: lo, max: hi, step: step), value: .number(value))
    }

    static func model(_ menus: [NodeSpec]) -> MenuModel {
        MenuModel(config: MenuConfig(file: "test.yaml", menus: menus))
    }

    /// apps (items), power (exclusive with two subgroups), settings (values).
    static var desktop: MenuModel {
        model([
            group("apps", [item("term", exec: "xterm"), item("web", exec: "firefox")]),
            group(
                "power", exclusive: true,
                [
                    group("session", [item("lock"), item("logout")]),
                    group("system", [item("reboot"), item("off")]),
                ]),
            group(
                "settings",
                [
                    toggle("wifi"),
                    choice("theme", ["Light", "Dark"], title: "Theme: {value}"),
                    range("volume", 0, 100, step: 5, value: 50),
                    NodeSpec(
                        id: "name", kind: .group,
                        title: TitleTemplate(parsing: "{settings/first} {settings/last}"),
                        children: [], expanded: false),
                    NodeSpec(
                        id: "first", kind: .text, title: TitleTemplate(literal: "First"),
                        rule: .text(maxBytes: 16), value: .text("Ada")),
                    NodeSpec(
                        id: "last", kind: .text, title: TitleTemplate(literal: "Last"),
                        rule: .text(maxBytes: 16), value: .text("Lovelace")),
                    NodeSpec(id: "when", kind: .date, title: TitleTemplate(literal: "When"), rule: .date),
                ]),
        ])
    }
}
