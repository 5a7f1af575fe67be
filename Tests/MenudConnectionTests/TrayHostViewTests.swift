import MenuCore
import Testing

@testable import menud

/// What a host was told: a change is told against it entry by entry, an entry the
/// host never fetched is not told, and a submenu whose entries changed is fetched anew.
@Suite struct TrayHostViewTests {
    private func compare(_ view: inout TrayHostView, _ entries: [TrayEntry], complete: Bool = false) -> (
        changed: [String], submenus: [TrayEntryKey]
    ) {
        var changed: [TrayEntry] = []
        var submenus: [TrayEntryKey] = []
        for entry in entries {
            view.compare(entry, complete: complete, changed: &changed, submenus: &submenus)
        }
        return (changed.map(\.label), submenus)
    }

    @Test func onlyWhatTheHostHasAndWhatChangedIsTold() throws {
        let model = try TrayFixture.model()
        var view = TrayHostView()
        #expect(!view.hasLayout)
        // Nothing fetched: nothing to tell.
        _ = try model.toggle("main/wifi")
        let before = compare(&view, [try model.entry("main/wifi", depth: 0)])
        #expect(before.changed.isEmpty)

        view.fetched(try model.entry("main"), depth: -1, isWholeMenu: true)
        #expect(view.hasLayout)
        let same = compare(&view, [try model.entry("main/wifi", depth: 0)])
        #expect(same.changed.isEmpty)
        _ = try model.toggle("main/wifi")
        let told = compare(&view, [try model.entry("main/wifi", depth: 0)])
        #expect(told.changed == ["Wi-Fi"] && told.submenus.isEmpty)
        // Told once: the same again is nothing.
        let again = compare(&view, [try model.entry("main/wifi", depth: 0)])
        #expect(again.changed.isEmpty)
    }

    @Test func aRangesStepsAreComparedOneByOne() throws {
        let model = try TrayFixture.model()
        var view = TrayHostView()
        view.fetched(try model.entry("main"), depth: -1, isWholeMenu: true)
        _ = try model.set("main/vol", "10")
        let told = compare(&view, [try model.entry("main/vol", depth: 0)], complete: true)
        // The range's own label, the step that went off and the one that came on.
        #expect(told.changed == ["Volume: 10", "5", "10"] && told.submenus.isEmpty)
    }

    @Test func entriesTheHostDidNotFetchAreNotCompared() throws {
        let model = try TrayFixture.model()
        var view = TrayHostView()
        // The menu one level down: the range's steps were not fetched.
        view.fetched(try model.entry("main", depth: 1), depth: 1, isWholeMenu: true)
        _ = try model.set("main/vol", "10")
        let told = compare(&view, [try model.entry("main/vol", depth: 0)], complete: true)
        #expect(told.changed == ["Volume: 10"] && told.submenus.isEmpty)
    }

    @Test func aSubmenuWhoseEntriesChangedIsFetchedAnew() throws {
        var view = TrayHostView()
        var range = TrayEntry(key: .node(path: "m/r"), label: "R")
        range.children = [TrayEntry(key: .rangeStep(path: "m/r", value: "0"), label: "0")]
        view.fetched(range, depth: -1, isWholeMenu: false)
        range.children.append(TrayEntry(key: .rangeStep(path: "m/r", value: "1"), label: "1"))
        let first = compare(&view, [range], complete: true)
        #expect(first.submenus == [range.key])
        // Until the host fetches it again, it is not compared.
        let second = compare(&view, [range], complete: true)
        #expect(second.submenus.isEmpty)
    }

    @Test func replacedEntriesAreToldOnlyWhenTheHostHadThem() throws {
        let model = try TrayFixture.model()
        var view = TrayHostView()
        view.fetched(try model.entry("main", depth: 1), depth: 1, isWholeMenu: true)
        // The host has main's entries, but not those of main/nets.
        let nets = view.replacedEntries(of: .node(path: "main/nets"))
        let main = view.replacedEntries(of: .node(path: "main"))
        let mainAgain = view.replacedEntries(of: .node(path: "main"))
        #expect(!nets && main && !mainAgain)
        view.forgetAll()
        #expect(!view.hasLayout)
    }

    @Test func theWholeMenuFetchedForgetsEntriesGone() throws {
        var view = TrayHostView()
        let gone = TrayEntry(key: .node(path: "m/gone"), label: "Gone")
        view.fetched(gone, depth: 0, isWholeMenu: false)
        view.fetched(TrayEntry(key: .node(path: "m"), label: "M"), depth: -1, isWholeMenu: true)
        var changed = gone
        changed.label = "Back"
        let told = compare(&view, [changed])
        #expect(told.changed.isEmpty)
    }
}
