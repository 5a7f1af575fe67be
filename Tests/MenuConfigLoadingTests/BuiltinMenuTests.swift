import Foundation
import MenuConfigLoading
import MenuCore
import TestSupport
import Testing

@Suite struct BuiltinMenuTests {
    /// The compiled-in menu is a copy of config/example.yaml; they must not drift.
    @Test func matchesTheExampleFileByteForByte() throws {
        let example = TestPaths.packageRoot.appendingPathComponent("config/example.yaml")
        let bytes = try Data(contentsOf: example)
        #expect(Array(bytes) == Array(BuiltinMenu.yaml.utf8))
    }

    /// The front-end tests serve a copy of the example without its sources, so that
    /// their outcome does not depend on this machine's wpctl or nmcli; the copy must
    /// differ in nothing else.
    @Test func theStaticCopyDiffersOnlyInItsSources() throws {
        let example = try ConfigLoader.load(text: BuiltinMenu.yaml, file: BuiltinMenu.file).get()
        let copy = try ConfigLoader.load(path: TestPaths.fixture("example-static.yaml")).get()
        let (exampleModel, copyModel) = (MenuModel(config: example), MenuModel(config: copy))
        #expect(!exampleModel.valueSources.isEmpty)
        #expect(copyModel.valueSources.isEmpty)
        #expect(copyModel.tree() == exampleModel.tree())
    }

    @Test func exampleLoadsWithoutErrors() throws {
        let path = TestPaths.packageRoot.appendingPathComponent("config/example.yaml").path
        let config = try ConfigLoader.load(path: path).get()
        #expect(config.menus.map(\.id) == ["apps", "settings", "display", "power"])
        let builtin = try ConfigLoader.load(text: BuiltinMenu.yaml, file: BuiltinMenu.file).get()
        #expect(builtin.file == "<builtin>")
    }

    /// Paths the docs and their examples use.
    @Test func exampleHasTheDocumentedPaths() throws {
        let config = try ConfigLoader.load(text: BuiltinMenu.yaml, file: BuiltinMenu.file).get()
        func node(_ path: String) -> NodeSpec? {
            var level = config.menus
            var found: NodeSpec?
            for id in path.split(separator: "/") {
                found = level.first { $0.id == id }
                level = found?.children ?? []
            }
            return found
        }
        #expect(node("power")?.kind == .group)
        #expect(node("power")?.children.map(\.id) == ["lock", "suspend", "reboot", "shutdown"])
        #expect(node("apps")?.children.map(\.id) == ["terminal", "browser", "editor", "file-manager"])
        #expect(node("display/volume")?.rule == .range(min: 0, max: 100, step: 5))
        #expect(node("settings/appearance/theme")?.children.map(\.id) == ["Light", "Dark", "Solarized"])
        #expect(node("settings/appearance/theme")?.title.segments == [.literal("Theme: "), .ownValue])
        #expect(node("settings/network/wifi")?.kind == .toggle)
        #expect(node("settings/network/bluetooth")?.kind == .toggle)
        #expect(node("settings/system/hostname")?.kind == .text)
        #expect(node("settings/system/reminder")?.kind == .date)
        #expect(node("settings")?.exclusive == true)
    }
}
