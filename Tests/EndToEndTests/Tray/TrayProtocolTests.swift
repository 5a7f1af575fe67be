import Foundation
import MenuClient
import MenuProtocol
import TestSupport
import Testing

/// The tray's D-Bus objects against a real session bus of the test's own
/// (`dbus-daemon --session`), talked to with a real D-Bus client (`busctl`), the
/// daemon's side checked with the real menuctl.
@Suite(.ownThread) struct TrayProtocolTests {
    static let config = """
        settings:
          tray: true
        menu:
          - id: main
            title: Main
            icon: audio-volume-high
            children:
              - id: wifi
                title: "Wi-Fi: {value}"
                type: toggle
                value: on
              - id: theme
                title: Theme
                options: [Light, Dark]
                value: Dark
              - id: volume
                title: "Volume {value}"
                type: range
                step: 10
                value: 50
              - id: brightness
                title: Brightness
                type: range
                step: 1
                value: 50
              - id: host
                title: Hostname
                type: text
                value: box
              - id: more
                title: More
                children:
                  - id: lock
                    title: Lock
                    exec: "true"
              - id: note
                title: Note
                exec: "touch clicked"
              - id: wipe
                title: Wipe
                exec: "touch wiped"
                confirm: Really wipe?
          - id: hostile
            title: "<i>x</i> & y"
            children:
              - id: a
                title: "<b>bold</b> a_b\\nnext"
                exec: "true"
        """

    static func withConfig<T>(_ text: String = config, _ body: (String) async throws -> T) async throws -> T {
        try await withConfigFile(text, body)
    }

    /// GetLayout shows every node `menuctl tree` lists, in its order and depth, each as
    /// its kind is shown: groups and choices and ranges as submenus, a toggle as a
    /// checkmark, options and range steps as radio entries.
    @Test(.enabled(if: XTools.shouldRun(SessionBus.programs)))
    func layoutMatchesTree() async throws {
        try XTools.require(SessionBus.programs)
        try await Self.withConfig { config in
            try await withSessionBus { bus in
                try await withTrayDaemon(on: bus, config: config, arguments: []) { tray in
                    let items = try await tray.waitForItems(["main", "hostile"])
                    let item = try #require(items["main"])
                    let (_, root) = try bus.layout(of: item)
                    let tree = try tray.daemon.menuctl(["tree", "--json", "main"])
                    #expect(tree.status == 0)
                    let rows = try #require(
                        try JSONSerialization.jsonObject(with: Data(tree.stdout.utf8)) as? [[String: Any]])
                    // Nodes only: a range's steps are entries of the tray's own.
                    let nodes = Self.nodeEntries(root)
                    #expect(nodes.map(\.depth) == rows.map { $0["depth"] as? Int ?? -1 })
                    let expected = rows.map { row -> String in
                        let (kind, title) = (row["type"] as? String ?? "", row["title"] as? String ?? "")
                        let value = row["value"] as? String ?? ""
                        let shown =
                            (kind == "text" || kind == "range") && !title.contains(value)
                            ? "\(title): \(value)" : title
                        return shown
                    }
                    // As shown: the mnemonics are `labelsCarryTheirKeysAsMnemonics`'.
                    #expect(nodes.map { $0.entry.text ?? "" } == expected)
                    for (node, row) in zip(nodes, rows) {
                        let path = row["path"] as? String ?? ""
                        switch row["type"] as? String ?? "" {
                        case "group", "choice", "range": #expect(node.entry.isSubmenu, "\(path)")
                        case "toggle":
                            #expect(node.entry.toggleType == "checkmark")
                            #expect(node.entry.toggleState == (row["value"] as? String == "on" ? 1 : 0))
                        case "option":
                            #expect(node.entry.toggleType == "radio")
                            #expect(node.entry.toggleState == (row["selected"] as? Bool == true ? 1 : 0))
                        default: #expect(!node.entry.isSubmenu && node.entry.toggleType == nil, "\(path)")
                        }
                    }
                    let volume = try #require(root.entry(labelled: "Volume 50"))
                    #expect(volume.children.map { $0.label ?? "" } == (0...10).map { "\($0 * 10)" })
                    #expect(volume.children.map { $0.toggleState ?? -1 } == (0...10).map { $0 == 5 ? 1 : 0 })
                    let brightness = try #require(root.entry(labelled: "Brightness: 50"))
                    #expect(brightness.children.map { $0.label ?? "" } == ["−", "50", "+"])
                    #expect(brightness.children.map(\.enabled) == [true, false, true])

                    #expect(
                        try bus.property(item, "/StatusNotifierItem", "org.kde.StatusNotifierItem", "Title")
                            as? String == "Main")
                    #expect(
                        try bus.property(
                            item, "/StatusNotifierItem", "org.kde.StatusNotifierItem", "IconName") as? String
                            == "audio-volume-high")
                    #expect(
                        try bus.property(
                            item, "/StatusNotifierItem", "org.kde.StatusNotifierItem", "ItemIsMenu") as? Bool
                            == true)
                    #expect(
                        try bus.property(item, "/StatusNotifierItem", "org.kde.StatusNotifierItem", "Menu")
                            as? String == "/MenuBar")
                }
            }
        }
    }

    /// Entries that are nodes: all but those under a range, and a `confirm:` item's
    /// question (a label that cannot be clicked).
    static func nodeEntries(_ root: DBusMenuLayout) -> [(depth: Int, entry: DBusMenuLayout)] {
        var out: [(depth: Int, entry: DBusMenuLayout)] = []
        func walk(_ e: DBusMenuLayout, _ depth: Int) {
            guard e.enabled else { return }
            out.append((depth, e))
            guard
                !(e.isSubmenu && e.children.first?.toggleType == "radio"
                    && e.children.first?.label?.first?.isNumber == true)
                    && !(e.children.first?.label == "−")
            else { return }
            for c in e.children { walk(c, depth + 1) }
        }
        walk(root, 0)
        return out
    }

    /// Clicks act through the daemon, as `activate` and `set` do: the toggle flips, an
    /// option is picked, a range step and + set the value; and opening a submenu
    /// (AboutToShow) expands its group, closing it collapses it, as menuctl sees.
    @Test(.enabled(if: XTools.shouldRun(SessionBus.programs)))
    func eventsActThroughTheDaemon() async throws {
        try XTools.require(SessionBus.programs)
        try await withSessionBus { bus in
            try await Self.withConfig { config in
                try await withTrayDaemon(on: bus, config: config) { tray in
                    let name = try #require(try await tray.waitForItems(["main", "hostile"])["main"])
                    let (_, root) = try bus.layout(of: name)
                    /// Field `n` of the node's row record; empty when it has none (a
                    /// crash here would leave the other tests' buses running).
                    func field(_ n: Int, _ path: String) throws -> String {
                        let row = try tray.daemon.menuctl(["get", "--raw", path]).stdout
                        let fields = row.split(separator: "\t", omittingEmptySubsequences: false)
                        return fields.count > n ? String(fields[n]) : ""
                    }
                    func value(_ path: String) throws -> String { try field(7, path) }
                    func state(_ path: String) throws -> String { try field(4, path) }

                    try bus.menuEvent(
                        name, id: (try #require(root.entry(labelled: "Wi-Fi: on"))).id, "clicked")
                    #expect(try value("main/wifi") == "off")
                    try bus.menuEvent(name, id: (try #require(root.entry(labelled: "Light"))).id, "clicked")
                    #expect(try value("main/theme") == "Light")
                    try bus.menuEvent(
                        name,
                        id: (try #require(root.entry(labelled: "Volume 50")?.children.dropFirst(2).first)).id,
                        "clicked")
                    #expect(try value("main/volume") == "20")
                    try bus.menuEvent(
                        name,
                        id: (try #require(root.entry(labelled: "Brightness: 50")?.children.dropFirst(2).first))
                            .id, "clicked")
                    #expect(try value("main/brightness") == "51")

                    // What the host shows is its own: a submenu shown or hidden opens
                    // or closes nothing for the other clients (a GTK host never says
                    // that a menu closed).
                    let more = (try #require(root.entry(labelled: "More"))).id
                    #expect(try state("main/more") == "collapsed")
                    let shown = try bus.call(
                        name, "/MenuBar", "com.canonical.dbusmenu", "AboutToShow", "i", ["\(more)"])
                    #expect(shown.first as? Bool == false)
                    #expect(try state("main/more") == "collapsed")
                    try bus.menuEvent(name, id: more, "opened")
                    #expect(try state("main/more") == "collapsed")
                    #expect(try tray.daemon.menuctl(["expand", "main/more"]).status == 0)
                    try bus.menuEvent(name, id: more, "closed")
                    #expect(try state("main/more") == "expanded")

                    // An item's exec runs, in the daemon's directory, as `activate` runs it.
                    try bus.menuEvent(name, id: (try #require(root.entry(labelled: "Note"))).id, "clicked")
                    try await waitUntil("the item's command to run") {
                        tray.daemon.directory.contains("clicked")
                    }

                    // A `confirm:` item asks first: it is a submenu whose first entry is
                    // the question, which cannot be clicked, and only its Yes runs the
                    // command.
                    let wipe = try #require(root.entry(labelled: "Wipe"))
                    #expect(wipe.isSubmenu)
                    try #require(wipe.children.map(\.label) == ["Really wipe?", "_Yes", "_No"])
                    #expect(wipe.children.map(\.enabled) == [false, true, true])
                    try bus.menuEvent(name, id: wipe.children[0].id, "clicked")
                    try bus.menuEvent(name, id: wipe.children[2].id, "clicked")
                    #expect(try state("main/wipe") == "collapsed")
                    #expect(!tray.daemon.directory.contains("wiped"))
                    try bus.menuEvent(name, id: wipe.children[1].id, "clicked")
                    try await waitUntil("the confirmed command to run") {
                        tray.daemon.directory.contains("wiped")
                    }

                    // The layout shows what the clicks did.
                    let (_, after) = try bus.layout(of: name)
                    #expect(after.entry(labelled: "Wi-Fi: off")?.toggleState == 0)
                    #expect(after.entry(labelled: "Light")?.toggleState == 1)
                }
            }
        }
    }

    /// The icon's wheel moves the focus (`nav next`/`prev`), and its click activates
    /// the focused row (`nav activate`).
    @Test(.enabled(if: XTools.shouldRun(SessionBus.programs)))
    func scrollAndActivateMoveTheFocus() async throws {
        try XTools.require(SessionBus.programs)
        try await withSessionBus { bus in
            try await withTrayDaemon(on: bus) { tray in
                let name = try #require(
                    try await tray.waitForItems(["apps", "settings", "power"])["settings"])
                let sni = "org.kde.StatusNotifierItem"
                #expect(
                    try tray.daemon.menuctl(["focused", "--raw", "settings"]).stdout
                        == "focus\tsettings\tsettings\n")
                _ = try bus.call(name, "/StatusNotifierItem", sni, "Scroll", "is", ["1", "vertical"])
                #expect(
                    try tray.daemon.menuctl(["focused", "--raw", "settings"]).stdout
                        == "focus\tsettings\tsettings/wifi\n")
                _ = try bus.call(name, "/StatusNotifierItem", sni, "Activate", "ii", ["0", "0"])
                #expect(
                    try tray.daemon.menuctl(["get", "--raw", "settings/wifi"]).stdout.contains("\toff\t"))
                _ = try bus.call(name, "/StatusNotifierItem", sni, "Scroll", "is", ["-1", "vertical"])
                #expect(
                    try tray.daemon.menuctl(["focused", "--raw", "settings"]).stdout
                        == "focus\tsettings\tsettings\n")

                // What the daemon refuses is the caller's D-Bus error: a text node
                // cannot be activated.
                for _ in 0..<3 {
                    _ = try bus.call(name, "/StatusNotifierItem", sni, "Scroll", "is", ["1", "vertical"])
                }
                #expect(
                    try tray.daemon.menuctl(["focused", "--raw", "settings"]).stdout
                        == "focus\tsettings\tsettings/hostname\n")
                let before = try tray.daemon.menuctl(["tree", "--raw"]).stdout
                #expect(throws: BusCallFailed.self) {
                    try bus.call(name, "/StatusNotifierItem", sni, "Activate", "ii", ["0", "0"])
                }
                let refused = try bus.busctl([
                    "call", name, "/StatusNotifierItem", sni, "Activate", "ii", "0", "0",
                ])
                #expect(refused.stderr.contains("needs a value"), "\(refused)")
                // gdbus shows the error's name too.
                let named = try bus.gdbus([
                    "call", "--session", "--dest", name, "--object-path", "/StatusNotifierItem", "--method",
                    "\(sni).Activate", "0", "0",
                ])
                #expect(named.stderr.contains("org.menud.Error.NotActivatable"), "\(named)")
                #expect(try tray.daemon.menuctl(["tree", "--raw"]).stdout == before)
            }
        }
    }

    /// A horizontal wheel on the icon steps a focused range (`nav increase` and
    /// `decrease`), whichever way the host spells the orientation; the vertical one
    /// still moves the focus, and on a row that is no range the horizontal one does
    /// nothing.
    @Test(.enabled(if: XTools.shouldRun(SessionBus.programs)))
    func horizontalScrollStepsTheFocusedRange() async throws {
        try XTools.require(SessionBus.programs)
        try await withSessionBus { bus in
            try await withTrayDaemon(on: bus, config: TestPaths.fixture("ranges.yaml")) { tray in
                let name = try #require(try await tray.waitForItems(["display"])["display"])
                let sni = "org.kde.StatusNotifierItem"
                let value = { (path: String) throws -> String in
                    let fields = try tray.daemon.menuctl(["get", "--raw", path]).stdout.split(
                        separator: "\t", omittingEmptySubsequences: false)
                    return fields.count > 7 ? String(fields[7]) : ""
                }
                #expect(try tray.daemon.menuctl(["focus", "display/volume"]).status == 0)
                _ = try bus.call(name, "/StatusNotifierItem", sni, "Scroll", "is", ["1", "horizontal"])
                #expect(try value("display/volume") == "45")
                _ = try bus.call(name, "/StatusNotifierItem", sni, "Scroll", "is", ["-120", "Horizontal"])
                _ = try bus.call(name, "/StatusNotifierItem", sni, "Scroll", "is", ["-1", "horizontal"])
                #expect(try value("display/volume") == "35")
                #expect(
                    try tray.daemon.menuctl(["focused", "--raw", "display"]).stdout
                        == "focus\tdisplay\tdisplay/volume\n")

                // The vertical wheel moves the focus, onto a range without a step: the
                // horizontal one then moves it by 1% of its span.
                _ = try bus.call(name, "/StatusNotifierItem", sni, "Scroll", "is", ["1", "vertical"])
                #expect(
                    try tray.daemon.menuctl(["focused", "--raw", "display"]).stdout
                        == "focus\tdisplay\tdisplay/brightness\n")
                _ = try bus.call(name, "/StatusNotifierItem", sni, "Scroll", "is", ["1", "horizontal"])
                #expect(try value("display/brightness") == "70.9")

                #expect(try tray.daemon.menuctl(["focus", "display/mute"]).status == 0)
                let before = try tray.daemon.menuctl(["tree", "--raw"]).stdout
                _ = try bus.call(name, "/StatusNotifierItem", sni, "Scroll", "is", ["1", "horizontal"])
                #expect(try tray.daemon.menuctl(["tree", "--raw"]).stdout == before)
            }
        }
    }

    /// `open PATH` asks the host to pop up the menu PATH is in: one
    /// `ItemActivationRequested` on that item's root, from that item alone.
    @Test(.enabled(if: XTools.shouldRun(SessionBus.programs)))
    func openAsksTheHostToShowTheItemsMenu() async throws {
        try XTools.require(SessionBus.programs)
        try await withSessionBus { bus in
            try await withTrayDaemon(on: bus) { tray in
                let items = try await tray.waitForItems(["apps", "settings", "power"])
                var owners: [String: String] = [:]
                for (menu, name) in items { owners[try #require(try bus.owner(of: name))] = menu }
                let monitor = try await bus.monitor(match: "type='signal',member='ItemActivationRequested'")
                try await withCleanup(
                    {
                        #expect(try tray.daemon.menuctl(["open", "power/session/lock"]).status == 0)
                        func requests() -> [(menu: String, data: [Int])] {
                            monitor.monitoredMessages.filter { $0.member == "ItemActivationRequested" }.map {
                                (owners[$0.sender] ?? $0.sender, $0.data.compactMap { $0 as? Int })
                            }
                        }
                        try await waitUntil("ItemActivationRequested; seen \(requests())") {
                            !requests().isEmpty
                        }
                        // A later command's signal would follow this one: after a
                        // ping's answer, anything more from open would have come.
                        #expect(try tray.daemon.menuctl(["ping"]).status == 0)
                        let seen = requests()
                        #expect(seen.map(\.menu) == ["power"], "\(seen)")
                        #expect(seen.first?.data == [0, 0])
                    }, cleanup: { await monitor.stop() })
            }
        }
    }

    /// Every event group is one LayoutUpdated from each item whose menu it changed,
    /// with the group's number as the revision: a command from another client, and a
    /// batch that changes two menus.
    @Test(.enabled(if: XTools.shouldRun(SessionBus.programs)))
    func layoutUpdatedOncePerEventGroup() async throws {
        try XTools.require(SessionBus.programs)
        try await withSessionBus { bus in
            try await withTrayDaemon(on: bus) { tray in
                let items = try await tray.waitForItems(["apps", "settings", "power"])
                var owners: [String: String] = [:]
                for (menu, name) in items { owners[try #require(try bus.owner(of: name))] = menu }
                let monitor = try await bus.monitor(match: "type='signal',member='LayoutUpdated'")
                try await withCleanup(
                    {
                        let subscriber = try tray.daemon.connect()
                        try subscriber.subscribe()

                        #expect(try tray.daemon.menuctl(["toggle", "apps"]).status == 0)
                        let toggled = try subscriber.readEventGroup().sequence
                        let batch = try tray.daemon.connect()
                        try batch.send("begin\nexpand power\nset settings/wifi off\nend\n")
                        #expect(try batch.readReply().isOK)
                        let batched = try subscriber.readEventGroup().sequence

                        func updates() -> [(menu: String, revision: Int)] {
                            monitor.monitoredMessages.compactMap { message in
                                guard message.member == "LayoutUpdated",
                                    let revision = message.data.first as? Int
                                else { return nil }
                                return (owners[message.sender] ?? message.sender, revision)
                            }
                        }
                        // Each item has a connection of its own, so their signals may
                        // reach the monitor in any order.
                        try await waitUntil(
                            "LayoutUpdated for groups \(toggled) and \(batched); seen \(updates())"
                        ) {
                            updates().filter { $0.revision == batched }.count == 2
                                && updates().contains { $0.revision == toggled }
                        }
                        let seen = updates()
                        #expect(seen.filter { $0.revision == toggled }.map(\.menu) == ["apps"])
                        #expect(
                            Set(seen.filter { $0.revision == batched }.map(\.menu)) == ["power", "settings"])
                        #expect(seen.count == 3, "\(seen)")
                    }, cleanup: { await monitor.stop() })
            }
        }
    }

    /// Once a host has the layout, a value change is `ItemsPropertiesUpdated` with
    /// exactly the changed entry, and no `LayoutUpdated`: the host redraws one row.
    @Test(.enabled(if: XTools.shouldRun(SessionBus.programs)))
    func aValueChangeUpdatesOnlyItsEntry() async throws {
        try XTools.require(SessionBus.programs)
        try await withSessionBus { bus in
            try await withTrayDaemon(on: bus) { tray in
                let name = try #require(
                    try await tray.waitForItems(["apps", "settings", "power"])["settings"])
                let (_, root) = try bus.layout(of: name)
                let wifi = try #require(root.flattened().first { $0.entry.toggleType == "checkmark" }?.entry)
                let monitor = try await bus.monitor(
                    match:
                        "type='signal',interface='com.canonical.dbusmenu',sender='\(try #require(try bus.owner(of: name)))'"
                )
                try await withCleanup(
                    {
                        #expect(try tray.daemon.menuctl(["activate", "settings/wifi"]).status == 0)
                        func signals() -> [MonitoredMessage] { monitor.monitoredMessages }
                        try await waitUntil("ItemsPropertiesUpdated; seen \(signals().map(\.member))") {
                            signals().contains { $0.member == "ItemsPropertiesUpdated" }
                        }
                        let seen = signals()
                        #expect(seen.map(\.member) == ["ItemsPropertiesUpdated"])
                        let updated = try #require(seen.first?.data.first as? [Any])
                        #expect(updated.count == 1)
                        let entry = try #require(updated.first as? [Any])
                        #expect(entry.first as? Int == wifi.id)
                        let properties = try #require(entry.last as? [String: Any])
                        let state = (properties["toggle-state"] as? [String: Any])?["data"] as? Int
                        #expect(state == (wifi.toggleState == 1 ? 0 : 1))
                    }, cleanup: { await monitor.stop() })
            }
        }
    }

    /// A group's children loaded anew are one `LayoutUpdated` naming that submenu,
    /// and the children that stay keep their ids.
    @Test(.enabled(if: XTools.shouldRun(SessionBus.programs)))
    func childrenLoadedAnewUpdateTheirSubmenuOnly() async throws {
        try XTools.require(SessionBus.programs)
        let menu = """
            menu:
              - id: main
                title: Main
                children:
                  - id: wifi
                    title: Wi-Fi
                    type: toggle
                  - id: nets
                    title: Networks
                    children-cmd: cat nets.yaml
            """
        try await Self.withConfig(menu) { config in
            try await withSessionBus { bus in
                let directory = try TempDirectory()
                let list = directory.file("nets.yaml")
                try "- {id: home, title: Home}\n".write(toFile: list, atomically: true, encoding: .utf8)
                try await withDaemon(
                    config: config, arguments: ["--tray"], directory: directory, environment: bus.environment
                ) { daemon in
                    let tray = TrayDaemon(daemon: daemon, bus: bus)
                    let name = try #require(try await tray.waitForItems(["main"])["main"])
                    #expect(try daemon.menuctl(["refresh", "main/nets"]).status == 0)
                    let (_, first) = try bus.layout(of: name)
                    let nets = try #require(first.entry(labelled: "Networks"))
                    let home = try #require(first.entry(labelled: "Home"))
                    let monitor = try await bus.monitor(
                        match:
                            "type='signal',member='LayoutUpdated',sender='\(try #require(try bus.owner(of: name)))'"
                    )
                    try await withCleanup(
                        {
                            try "- {id: home, title: Home}\n- {id: cafe, title: Cafe}\n".write(
                                toFile: list, atomically: true, encoding: .utf8)
                            #expect(try daemon.menuctl(["refresh", "main/nets"]).status == 0)
                            try await waitUntil("LayoutUpdated; log: \(monitor.log)") {
                                monitor.log.contains("LayoutUpdated")
                            }
                            let parents = monitor.monitoredMessages.compactMap { message -> Int? in
                                message.data.count == 2 ? message.data[1] as? Int : nil
                            }
                            #expect(parents == [nets.id], "LayoutUpdated's parents \(parents)")
                            let (_, after) = try bus.layout(of: name)
                            #expect(after.entry(labelled: "Home")?.id == home.id)
                            #expect(after.entry(labelled: "Cafe") != nil)
                        }, cleanup: { await monitor.stop() })
                }
            }
        }
    }

    /// GTK hosts ask `AboutToShow` and send `opened` several times as they show one
    /// submenu: a `children-cmd` group's command runs once per showing of the menu,
    /// which starts when the host shows the menu itself (its root) or ends with a
    /// click.
    @Test(.enabled(if: XTools.shouldRun(SessionBus.programs)))
    func aChildrenCommandRunsOncePerShowing() async throws {
        try XTools.require(SessionBus.programs)
        let menu = """
            menu:
              - id: main
                title: Main
                children:
                  - id: wifi
                    title: Wi-Fi
                    type: toggle
                  - id: nets
                    title: Networks
                    children-cmd: >-
                      echo run >> runs; echo '- {id: home, title: Home}'
            """
        try await Self.withConfig(menu) { config in
            try await withSessionBus { bus in
                let directory = try TempDirectory()
                try await withDaemon(
                    config: config, arguments: ["--tray"], directory: directory, environment: bus.environment
                ) { daemon in
                    let tray = TrayDaemon(daemon: daemon, bus: bus)
                    let name = try #require(try await tray.waitForItems(["main"])["main"])
                    func runs() -> Int {
                        ((try? String(contentsOfFile: directory.file("runs"), encoding: .utf8)) ?? "")
                            .split(separator: "\n").count
                    }
                    func show(_ id: Int) throws {
                        _ = try bus.call(
                            name, "/MenuBar", "com.canonical.dbusmenu", "AboutToShow", "i", ["\(id)"])
                    }
                    let (_, root) = try bus.layout(of: name)
                    let nets = try #require(root.entry(labelled: "Networks")).id
                    let wifi = try #require(root.entry(labelled: "Wi-Fi")).id
                    // One showing, as waybar's and xfce4-panel's hosts tell it.
                    for _ in 0..<3 {
                        try show(0)
                        try show(nets)
                        try bus.menuEvent(name, id: nets, "opened")
                        try bus.menuEvent(name, id: nets, "closed")
                    }
                    _ = try bus.call(
                        name, "/MenuBar", "com.canonical.dbusmenu", "AboutToShowGroup", "ai",
                        ["1", "\(nets)"])
                    // AboutToShow answers once the command ran, so a second run would
                    // have been counted by now.
                    #expect(runs() == 3, "each root showing is a showing of its own")
                    try show(nets)
                    try bus.menuEvent(name, id: nets, "opened")
                    #expect(runs() == 3)
                    // A click ends the showing.
                    try bus.menuEvent(name, id: wifi, "clicked")
                    try show(nets)
                    try await waitUntil("a run for the next showing") { runs() == 4 }
                    try show(nets)
                    #expect(runs() == 4)
                }
            }
        }
    }

    /// Titles are data: dbusmenu labels double `_` (its access-key marker), so that
    /// only the node's own key is a mnemonic, and carry markup as text, a newline as
    /// a space; the tooltip's markup is escaped.
    @Test(.enabled(if: XTools.shouldRun(SessionBus.programs)))
    func hostileLabelsAreInert() async throws {
        try XTools.require(SessionBus.programs)
        try await Self.withConfig { config in
            try await withSessionBus { bus in
                try await withTrayDaemon(on: bus, config: config) { tray in
                    let name = try #require(try await tray.waitForItems(["main", "hostile"])["hostile"])
                    let (_, root) = try bus.layout(of: name)
                    #expect(root.children.map(\.label) == ["<_b>bold</b> a__b next"])
                    let tooltip =
                        try bus.property(name, "/StatusNotifierItem", "org.kde.StatusNotifierItem", "ToolTip")
                        as? [Any]
                    #expect(tooltip?.dropFirst(2).first as? String == "&lt;i&gt;x&lt;/i&gt; &amp; y")
                    #expect(
                        try bus.property(name, "/StatusNotifierItem", "org.kde.StatusNotifierItem", "Title")
                            as? String == "<i>x</i> & y")
                }
            }
        }
    }

    /// Each node's label marks its access key (`_` before the first letter that is
    /// the key, or ` (_K)` after it when none is), and `_` of the title stays doubled.
    @Test(.enabled(if: XTools.shouldRun(SessionBus.programs)))
    func labelsCarryTheirKeysAsMnemonics() async throws {
        try XTools.require(SessionBus.programs)
        let config = """
            menu:
              - id: keys
                title: Keys
                children:
                  - title: Wi-Fi
                    type: toggle
                  - title: snake_case
                    key: c
                    exec: "true"
                  - title: __init__
                    exec: "true"
                  - title: VPN
                    key: 7
                    exec: "true"
                  - title: Écran
                    exec: "true"
                  - id: rule
                    title: "---"
                    exec: "true"
            """
        try await withConfigFile(config) { config in
            try await withSessionBus { bus in
                try await withTrayDaemon(on: bus, config: config) { tray in
                    let name = try #require(try await tray.waitForItems(["keys"])["keys"])
                    let (_, root) = try bus.layout(of: name)
                    #expect(
                        root.children.map(\.label) == [
                            "_Wi-Fi", "snake___case", "_____init____", "VPN (_7)", "_Écran", "---",
                        ])
                    #expect(
                        root.children.map(\.text) == [
                            "Wi-Fi", "snake_case", "__init__", "VPN (7)", "Écran", "---",
                        ])
                }
            }
        }
    }

    /// Bad input from the bus gets a D-Bus error and changes nothing: an unknown id, a
    /// wrong signature, a request the daemon refuses, and an id whose node a reload
    /// removed.
    @Test(.enabled(if: XTools.shouldRun(SessionBus.programs)))
    func badInputIsRefused() async throws {
        try XTools.require(SessionBus.programs)
        try await Self.withConfig { config in
            try await withSessionBus { bus in
                try await withTrayDaemon(on: bus, config: config, watch: false) { tray in
                    let name = try #require(try await tray.waitForItems(["main", "hostile"])["main"])
                    let (_, root) = try bus.layout(of: name)
                    let before = try tray.daemon.menuctl(["tree"]).stdout
                    func refused(_ member: String, _ signature: String, _ arguments: [String]) -> String? {
                        do {
                            _ = try bus.call(
                                name, "/MenuBar", "com.canonical.dbusmenu", member, signature, arguments)
                            return nil
                        } catch {
                            return "\(error)"
                        }
                    }
                    #expect(
                        refused("Event", "isvu", ["9999", "clicked", "s", "", "0"])?.contains(
                            "no menu entry 9999") == true)
                    #expect(refused("Event", "is", ["1", "clicked"])?.contains("expecting 'isvu'") == true)
                    #expect(refused("AboutToShow", "i", ["9999"]) != nil)
                    #expect(refused("GetLayout", "iias", ["9999", "-1", "0"]) != nil)
                    #expect(refused("GetProperty", "is", ["0", "no-such-property"]) != nil)
                    // Any negative depth is the whole layout, the most negative one too.
                    #expect(
                        try bus.call(
                            name, "/MenuBar", "com.canonical.dbusmenu", "GetLayout", "iias",
                            ["0", "-2147483648", "0"]
                        ).count == 2)
                    #expect(try tray.daemon.menuctl(["tree"]).stdout == before)

                    // A reload that removes `more`: its entries' ids now name nothing.
                    let lock = (try #require(root.entry(labelled: "Lock"))).id
                    let more = (try #require(root.entry(labelled: "More"))).id
                    try Self.config.replacingOccurrences(
                        of:
                            "      - id: more\n        title: More\n        children:\n          - id: lock\n            title: Lock\n            exec: \"true\"\n",
                        with: ""
                    )
                    .write(toFile: config, atomically: true, encoding: .utf8)
                    #expect(try tray.daemon.menuctl(["reload"]).status == 0)
                    let reloaded = try tray.daemon.menuctl(["tree"]).stdout
                    #expect(!reloaded.contains("main/more"))
                    #expect(
                        refused("Event", "isvu", ["\(lock)", "clicked", "s", "", "0"])?.contains(
                            "no menu entry") == true)
                    #expect(refused("AboutToShow", "i", ["\(more)"])?.contains("no menu entry") == true)
                    #expect(try tray.daemon.menuctl(["tree"]).stdout == reloaded)
                    #expect(tray.daemon.process.isRunning)
                }
            }
        }
    }

    /// Ranges with more steps than an Int holds, or wider than a Double, are shown
    /// with − and +, which move them; building their layout cannot crash the daemon.
    @Test(.enabled(if: XTools.shouldRun(SessionBus.programs)))
    func hugeRangesAreButtons() async throws {
        try XTools.require(SessionBus.programs)
        try await withSessionBus { bus in
            try await withTrayDaemon(on: bus, config: TestPaths.fixture("huge-ranges.yaml")) { tray in
                let name = try #require(try await tray.waitForItems(["huge"])["huge"])
                let (_, root) = try bus.layout(of: name)
                let many = try #require(root.entry(labelled: "Many: 5"))
                try #require(many.children.map(\.label) == ["−", "5", "+"])
                let wide = try #require(root.entry(labelled: "Wide: 1e+308"))
                try #require(wide.children.map(\.label) == ["−", "1e+308", "+"])
                try bus.menuEvent(name, id: many.children[2].id, "clicked")
                #expect(try tray.daemon.menuctl(["get", "--raw", "huge/many"]).stdout.contains("\t6\t"))
                try bus.menuEvent(name, id: wide.children[0].id, "clicked")
                #expect(
                    try tray.daemon.menuctl(["get", "--raw", "huge/wide"]).stdout.contains("\t8e+307\t"))
            }
        }
    }

    /// AboutToShowGroup answers once every group it opened is open, a children-cmd
    /// group too, whose children load first: the group is among the updated ids.
    @Test(.enabled(if: XTools.shouldRun(SessionBus.programs)))
    func aboutToShowGroupWaitsForLoadedChildren() async throws {
        try XTools.require(SessionBus.programs)
        try await withSessionBus { bus in
            try await withTrayDaemon(on: bus, config: TestPaths.fixture("live.yaml")) { tray in
                var nets: String?
                try await waitUntil("the nets item") {
                    nets = try tray.items()["nets"]
                    return nets != nil
                }
                let name = try #require(nets)
                let reply = try bus.call(
                    name, "/MenuBar", "com.canonical.dbusmenu", "AboutToShowGroup", "ai", ["2", "0", "9999"])
                #expect(
                    reply.count == 2 && reply[0] as? [Int] == [0] && reply[1] as? [Int] == [9999], "\(reply)")
                #expect(try bus.layout(of: name).root.children.map(\.text) == ["Home", "Cafe"])
            }
        }
    }

    /// Without a session bus the tray says so once, and not again on each reload,
    /// and everything else runs.
    @Test func noBusLeavesTheDaemonServing() async throws {
        let directory = try TempDirectory()
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(directory.file("no-bus-here"))"
        try await withDaemon(arguments: ["--tray"], directory: directory, environment: environment) {
            (daemon: TestDaemon) async throws in
            #expect(try daemon.menuctl(["toggle", "apps"]).status == 0)
            #expect(try daemon.menuctl(["get", "--raw", "apps"]).stdout.contains("\texpanded\t"))
            for _ in 0..<2 { #expect(try daemon.menuctl(["reload"]).status == 0) }
            let lines = daemon.log.split(separator: "\n").filter { $0.contains("] tray") }
            #expect(lines.count == 1, "\(daemon.log)")
            #expect(lines.first?.contains("no session bus") == true)
        }
    }

    /// A reload that adds a menu adds its item, and one that removes a menu removes its
    /// item from the bus; the other items stay, under the same names.
    @Test(.enabled(if: XTools.shouldRun(SessionBus.programs)))
    func reloadAddsAndRemovesItems() async throws {
        try XTools.require(SessionBus.programs)
        try await Self.withConfig { config in
            try await withSessionBus { bus in
                try await withTrayDaemon(on: bus, config: config) { tray in
                    let first = try await tray.waitForItems(["main", "hostile"])
                    try Self.config.replacingOccurrences(
                        of: "  - id: hostile", with: "  - id: extra\n    title: Extra\n  - id: hostile2"
                    )
                    .write(toFile: config, atomically: true, encoding: .utf8)
                    #expect(try tray.daemon.menuctl(["reload"]).status == 0)
                    let second = try await tray.waitForItems(["main", "extra", "hostile2"])
                    #expect(second["main"] == first["main"])
                    #expect(try bus.names(startingWith: try #require(first["hostile"])) == [])
                }
            }
        }
    }

    /// `settings: tray` follows reloads: off removes every item from the bus, on
    /// publishes them again.
    @Test(.enabled(if: XTools.shouldRun(SessionBus.programs)))
    func settingTurnsTheTrayOnAndOff() async throws {
        try XTools.require(SessionBus.programs)
        try await Self.withConfig { config in
            try await withSessionBus { bus in
                try await withTrayDaemon(on: bus, config: config, arguments: []) { tray in
                    _ = try await tray.waitForItems(["main", "hostile"])
                    let prefix = "org.kde.StatusNotifierItem-\(tray.daemon.pid)-"
                    try Self.config.replacingOccurrences(of: "tray: true", with: "tray: false")
                        .write(toFile: config, atomically: true, encoding: .utf8)
                    #expect(try tray.daemon.menuctl(["reload"]).status == 0)
                    try await waitUntil("the items to leave the bus") {
                        try bus.names(startingWith: prefix).isEmpty
                    }
                    try Self.config.write(toFile: config, atomically: true, encoding: .utf8)
                    #expect(try tray.daemon.menuctl(["reload"]).status == 0)
                    _ = try await tray.waitForItems(["main", "hostile"])
                }
            }
        }
    }
}
