import MenuCore

#if canImport(Glibc)
    import Glibc
#endif

// TEMPORARY: stands in for MenuCore's `ConfigLoader` and `BuiltinMenu` until the
// loader lands on main. Declarations in this module shadow MenuCore's, so the rest of
// menud is written against the real API; delete this file after `git merge main`.
//
// It cannot read YAML. For any readable file it serves, built in code, the tree of
// Tests/EndToEndTests/Fixtures/menu.yaml, so that the end-to-end tests of the model
// commands run before the loader exists.

enum BuiltinMenu {
    static let file = "<builtin>"
    static let yaml = ""
}

enum ConfigLoader {
    static func load(path: String) -> Result<MenuConfig, ConfigErrors> {
        guard let handle = fopen(path, "r") else {
            return .failure(
                ConfigErrors([
                    ConfigError(
                        file: path, mark: SourceMark(line: 1, column: 1), message: "cannot read config")
                ]))
        }
        fclose(handle)
        return .success(MenuConfig(file: path, menus: fixture))
    }

    static func load(text: String, file: String) -> Result<MenuConfig, ConfigErrors> {
        .success(MenuConfig(file: file, menus: fixture))
    }

    private static func node(
        _ id: String, _ kind: NodeKind, _ title: String, children: [NodeSpec] = [], expanded: Bool = false,
        exec: String? = nil, rule: ValueRule? = nil, value: Value? = nil
    ) -> NodeSpec {
        NodeSpec(
            id: id, kind: kind, title: TitleTemplate(parsing: title), children: children, expanded: expanded,
            exec: exec, rule: rule, value: value)
    }

    private static let fixture: [NodeSpec] = [
        node(
            "apps", .group, "Applications",
            children: [
                node("term", .item, "Terminal", exec: "cut -d' ' -f6 /proc/$$/stat > activated"),
                node("tabbed", .item, "Tab\there", exec: "true"),
            ]),
        node(
            "settings", .group, "Settings",
            children: [
                node("wifi", .toggle, "Wi-Fi: {value}", rule: .toggle, value: .toggle(true)),
                node(
                    "theme", .choice, "Theme: {value}",
                    children: [node("Light", .option, "Light"), node("Dark", .option, "Dark")],
                    rule: .choice(options: ["Light", "Dark"]), value: .choice("Dark")),
                node(
                    "hostname", .text, "Hostname: {value}", rule: .text(maxBytes: ValueRule.textLimit),
                    value: .text("workstation")),
            ], expanded: true),
        node(
            "power", .group, "Power",
            children: [
                node("session", .group, "Session", children: [node("lock", .item, "Lock", exec: "true")])
            ]),
    ]
}
