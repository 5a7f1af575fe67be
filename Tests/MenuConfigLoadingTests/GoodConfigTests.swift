import MenuConfigLoading
import MenuCore
import Testing

/// Checks what the loader builds from valid configs in Fixtures/good.
@Suite struct GoodConfigTests {
    func load(_ name: String) throws -> MenuConfig {
        let path = LoaderFixtures.fixture("good", name)
        switch ConfigLoader.load(path: path) {
        case .success(let config): return config
        case .failure(let errors):
            Issue.record("\(errors)")
            throw errors
        }
    }

    @Test func derivesIDsAndInfersTypes() throws {
        let config = try load("inference.yaml")
        #expect(config.menus.map(\.id) == ["my-apps", "display"])
        let apps = config.menus[0]
        #expect(apps.kind == .group)
        #expect(apps.children.map(\.id) == ["web-browser-firefox", "n-code_v1.2", "volume"])
        #expect(apps.children.map(\.kind) == [.item, .item, .item])
        #expect(apps.children[0].exec == "firefox")
        #expect(apps.children[0].rule == nil && apps.children[0].value == nil)
        #expect(apps.exclusive == false && apps.expanded == false)

        let display = config.menus[1]
        #expect(display.expanded)
        let theme = display.children[1]
        #expect(theme.kind == .choice)
        #expect(theme.id == "theme")
        #expect(theme.children.map(\.id) == ["Light", "dark", "solarized-dark"])
        #expect(theme.children.allSatisfy { $0.kind == .option })
        #expect(
            theme.children.map(\.title)
                == ["Light", "Dark Mode", "Solarized Dark"].map(TitleTemplate.init(literal:)))
        #expect(theme.children[1].icon == "weather-clear-night")
        #expect(theme.rule == .choice(options: ["Light", "dark", "solarized-dark"]))
        #expect(theme.value == .choice("Light"))
        #expect(theme.mark == SourceMark(line: 19, column: 9))
    }

    @Test func parsesTemplates() throws {
        let config = try load("inference.yaml")
        let volumeItem = config.menus[0].children[2]
        #expect(volumeItem.title.segments == [.literal("Volume "), .reference("display/volume")])
        #expect(volumeItem.subtitle?.segments == [.ownTitle, .literal(", {literal}")])
        let volume = config.menus[1].children[0]
        #expect(volume.title.segments == [.literal("Volume: "), .ownValue, .literal("%")])
        #expect(volume.rule == .range(min: 0, max: 100, step: 5))
        #expect(volume.value == .number(60))
    }

    @Test func readsValuesAndDefaults() throws {
        let values = try load("values.yaml").menus[0].children
        func node(_ id: String) -> NodeSpec { values.first { $0.id == id }! }
        #expect(node("t1").rule == .toggle && node("t1").value == .toggle(false))
        #expect(node("t2").value == .toggle(true))
        #expect(node("t3").value == .toggle(false))
        #expect(node("t3").onChange == "notify-send off")
        #expect(node("c1").value == .choice("a"))
        #expect(node("c2").value == .choice("c") && node("c2").expanded)
        #expect(node("r1").rule == .range(min: 0, max: 100, step: 0) && node("r1").value == .number(0))
        #expect(node("r2").rule == .range(min: -1, max: 1, step: 0.1) && node("r2").value == .number(0.3))
        #expect(node("x1").rule == .text(maxBytes: ValueRule.textLimit) && node("x1").value == .text(""))
        #expect(node("x2").value == .text("hello: world"))
        #expect(node("d1").rule == .date && node("d1").value == ValueRule.date.defaultValue)
        #expect(node("d2").value == .date(CalendarDate("2024-02-29")!))
        #expect(node("d3").value == .date(CalendarDate("2024-12-31")!))
    }

    @Test func appliesTheExclusiveDefaultFromSettings() throws {
        let config = try load("exclusive-default.yaml")
        let a = config.menus[0]
        #expect(a.exclusive)
        #expect(a.children[0].exclusive == false)
        #expect(a.children[0].children[0].exclusive)
        #expect(config.menus[1].exclusive == false)
        #expect(config.menus[1].exec == "true")
    }

    @Test func readsTheTraySetting() throws {
        let on = try ConfigLoader.load(text: "settings: {tray: true}\nmenu: [{title: A}]\n", file: "on").get()
        #expect(on.tray)
        let off = try ConfigLoader.load(text: "menu: [{title: A}]\n", file: "off").get()
        #expect(!off.tray)
        // A menu's children filled in from commands keep the setting.
        let filled = try ConfigLoader.load(
            text: "settings: {tray: true}\nmenu: [{title: A, children-cmd: 'true'}]\n", file: "filled"
        ).get()
        #expect(filled.fillingChildren { _ in [] }.tray)
    }

    @Test func loadsFromTextWithTheGivenFileName() throws {
        let config = try ConfigLoader.load(text: "menu: [{title: A}]\n", file: "inline").get()
        #expect(config.file == "inline")
        #expect(config.menus.map(\.id) == ["a"])
    }
}
