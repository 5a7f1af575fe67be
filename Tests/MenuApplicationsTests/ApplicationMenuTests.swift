import MenuApplications
import MenuCore
import Testing

/// The menu the entries make: categories, order, ids, actions, and literal titles.
@Suite struct ApplicationMenuTests {
    func entry(_ id: String, _ name: String, categories: [String] = [], actions: [DesktopEntry.Action] = [])
        -> DesktopEntry
    {
        var entry = DesktopEntry(
            id: id, file: "/apps/\(id)", type: "Application", name: name, comment: "About \(name)",
            icon: "icon-\(name)", arguments: [name.lowercased()])
        entry.categories = categories
        entry.actions = actions
        return entry
    }

    func titles(_ specs: [NodeSpec]) -> [String] { specs.map { $0.title.segments.map { "\($0)" }.joined() } }

    @Test func categoriesInTheirOrderWithOtherLastAndEmptyOnesLeftOut() {
        let menu = ApplicationMenu([
            entry("b.desktop", "zeta", categories: ["Network", "WebBrowser"]),
            entry("a.desktop", "Alpha", categories: ["WebBrowser", "Network"]),
            entry("c.desktop", "Beta", categories: ["X-Custom"]),
            entry("d.desktop", "Player", categories: ["Audio", "Player"]),
            entry("e.desktop", "Calculator", categories: ["Utility"]),
        ])
        #expect(menu.children.map(\.id) == ["utility", "network", "audiovideo", "other"])
        // The Icon Naming Specification's names for categories.
        #expect(
            menu.children.map(\.icon) == [
                "applications-accessories", "applications-internet", "applications-multimedia",
                "applications-other",
            ])
        #expect(menu.children[1].children.map(\.id) == ["a", "b"])
        #expect(
            menu.children[1].children.map(\.title) == [
                TitleTemplate(literal: "Alpha"), TitleTemplate(literal: "zeta"),
            ])
        #expect(menu.children[1].children[0].subtitle == TitleTemplate(literal: "About Alpha"))
        #expect(menu.children[1].children[0].icon == "icon-Alpha")
        #expect(menu.launches["network/a"]?.arguments == ["alpha"])
        #expect(menu.launches["other/c"]?.arguments == ["beta"])
        #expect(menu.launches.count == 5)
    }

    /// Search finds an application by what it is, as `rofi -show drun` does: its
    /// generic name, keywords, comment and categories are its keywords.
    @Test func anApplicationIsFoundByWhatItIs() throws {
        var foot = entry("foot.desktop", "Foot", categories: ["System", "TerminalEmulator"])
        foot.genericName = "Terminal"
        foot.keywords = ["shell", "prompt"]
        let dillo = entry("dillo.desktop", "Dillo", categories: ["Network", "WebBrowser"])
        let menu = ApplicationMenu([foot, dillo])
        let start = NodeSpec(
            id: "start", kind: .group, title: TitleTemplate(literal: "Start"), children: menu.children)
        let model = MenuModel(config: MenuConfig(file: "apps", menus: [start]))
        func found(_ query: String) throws -> [String] {
            try model.find(query, limit: 5).map { model.tree.path($0.node) }
        }
        #expect(try found("terminal") == ["start/system/foot"])
        #expect(try found("shell") == ["start/system/foot"])
        #expect(try found("browser") == ["start/network/dillo"])
        #expect(try found("about dillo") == ["start/network/dillo"])
        // The category's title is in the breadcrumbs "Start › Internet › Dillo".
        #expect(try found("internet dillo") == ["start/network/dillo"])
    }

    @Test func namesAreSortedIgnoringCase() {
        let menu = ApplicationMenu(["b", "A", "c", "B2"].enumerated().map { entry("\($0).desktop", $1) })
        #expect(menu.children.count == 1)
        #expect(
            menu.children[0].children.map(\.title)
                == ["A", "b", "B2", "c"].map { TitleTemplate(literal: $0) })
    }

    /// A translated name with an accent on its first letter sorts with its base
    /// letter, where comparing code points would put it after every plain one.
    @Test func accentedNamesSortWithTheirBaseLetter() {
        let names = ["Zoom", "Éditeur", "Fichiers", "Łódź", "Œuvres", "e\u{301}cran", "Ärger", "Spiel", "Ça"]
        let menu = ApplicationMenu(names.enumerated().map { entry("\($0).desktop", $1) })
        #expect(
            menu.children[0].children.map(\.title)
                == ["Ärger", "Ça", "e\u{301}cran", "Éditeur", "Fichiers", "Łódź", "Œuvres", "Spiel", "Zoom"]
                .map {
                    TitleTemplate(literal: $0)
                })
        // Every letter of the Latin blocks folds to a letter, Romanian's and
        // Vietnamese's too.
        for v in Array(UInt32(0xC0)...0x17F) + Array(0x218...0x21B) + Array(0x1EA0...0x1EF9)
        where ![0xD7, 0xF7].contains(v) {
            let key = ApplicationMenu.sortKey(String(Character(Unicode.Scalar(v)!)))
            #expect(key.first.map { (0x61...0x7A).contains($0) } == true, "U+\(String(v, radix: 16))")
        }
        #expect(ApplicationMenu.sortKey("Ā") == ApplicationMenu.sortKey("ā"))
    }

    @Test func titlesAreNeverTemplates() {
        let menu = ApplicationMenu([entry("a.desktop", "{value} {a/b} }}")])
        let app = menu.children[0].children[0]
        #expect(app.title == TitleTemplate(literal: "{value} {a/b} }}"))
        #expect(app.title.isLiteral && app.subtitle?.isLiteral == true)
    }

    @Test func idsAreValidAndUniqueAmongSiblings() {
        let menu = ApplicationMenu([
            entry("org.gnome.Maps.desktop", "Maps"),
            entry("my app+.desktop", "One"),
            entry("my app_.desktop", "Two"),
            entry("café.desktop", "Three"),
        ])
        #expect(
            Set(menu.children[0].children.map(\.id)) == ["org.gnome.Maps", "my_app_", "my_app_-2", "caf__"])
        #expect(menu.launches.count == 4)
    }

    @Test func anApplicationWithActionsIsAGroupThatOpensFirst() {
        let actions = [
            DesktopEntry.Action(
                id: "new-window", name: "New Window", icon: nil, arguments: ["web", "--new"]),
            DesktopEntry.Action(id: "open", name: "Open Again", icon: "x", arguments: ["web", "--again"]),
        ]
        let menu = ApplicationMenu([entry("web.desktop", "Web", actions: actions)])
        let app = menu.children[0].children[0]
        #expect(app.kind == .group)
        #expect(app.children.map(\.id) == ["open", "new-window", "open-2"])
        #expect(
            app.children.map(\.title)
                == ["Open", "New Window", "Open Again"].map { TitleTemplate(literal: $0) })
        #expect(menu.launches["other/web/open"]?.arguments == ["web"])
        #expect(menu.launches["other/web/open"]?.action == nil)
        #expect(menu.launches["other/web/new-window"]?.arguments == ["web", "--new"])
        #expect(menu.launches["other/web/open-2"]?.action == "open")
        #expect(menu.launches["other/web"] == nil)
    }

    @Test func dbusActivatableApplicationsHaveTheirNameAndObjectPath() {
        var dbus = entry("org.example.My-App.desktop", "App")
        dbus.dbusActivatable = true
        let launch = ApplicationMenu([dbus]).launches["other/org.example.My-App"]
        #expect(launch?.busName == "org.example.My-App")
        #expect(launch?.objectPath == "/org/example/My_App")
        // A file name that is no bus name is started from its Exec.
        for id in ["firefox.desktop", "org.7zip.App.desktop", "org..x.desktop", "org.ex ample.desktop"] {
            var entry = entry(id, "App")
            entry.dbusActivatable = true
            let launch = ApplicationMenu([entry]).launches.values.first
            #expect(launch?.busName == nil, "\(id)")
            #expect(launch?.arguments == ["app"])
        }
    }
}
