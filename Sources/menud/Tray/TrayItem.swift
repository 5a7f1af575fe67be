import Logging
import MenuBus
import MenuCore
import MenuLoop

#if canImport(Glibc)
    import Glibc
#endif

/// One top-level menu in the tray: a StatusNotifierItem with its dbusmenu, on a bus
/// connection of its own under the name `org.kde.StatusNotifierItem-PID-N`, so that
/// the host sees the item go when the connection closes (a reload that removed the
/// menu, or shutdown). It registers with the `org.kde.StatusNotifierWatcher`
/// whenever one appears, as when the bar restarts.
final class TrayItem {
    static let itemPath = "/StatusNotifierItem"
    static let menuPath = "/MenuBar"
    static let watcherName = "org.kde.StatusNotifierWatcher"

    /// The top-level menu's id, which is its path.
    let menu: String
    let busName: String
    let bus: BusConnection
    unowned let tray: Tray
    var ids: TrayEntryIDs
    /// The menu's entries, built on first use after each change: an event group
    /// (the tray's revision), or a change to the model that told no client (children
    /// loaded into a group that is closed in the daemon, for this host).
    private var built: (revision: UInt32, model: Int, menu: TrayMenu)?
    /// The entries as the host was last told them: the last layout built (which it
    /// fetched, or whose differences it was sent), with the entries changed in place
    /// since. A change of values is sent against these, entry by entry, without
    /// building the menu again: on a menu of 100,000 entries that is a tenth of a
    /// second per click. Nil until a layout is built.
    private var known: [TrayEntryKey: TrayEntry]?
    /// The submenus this host has shown since it last showed the whole menu, by
    /// path: GTK hosts ask `AboutToShow` and send `opened` several times as they show
    /// one submenu, and a `children-cmd` group runs its command once per showing.
    /// The tray's own view: showing a submenu opens nothing in the daemon.
    private var showing: Set<String> = []
    /// The events its host may still send (clicks, submenus opened and closed).
    var events = TrayEventBudget()
    /// What the item showed last, to signal what changed.
    private var shown: (title: String, icon: String)?

    init(menu: String, number: Int, tray: Tray, loop: EventLoop) throws(BusError) {
        self.menu = menu
        self.tray = tray
        busName = "org.kde.StatusNotifierItem-\(getpid())-\(number)"
        ids = TrayEntryIDs(root: .node(path: menu))
        bus = try BusConnection(sessionBusOn: loop)
        let logger = tray.logger
        bus.onError = { [menu] error in logger.warning("tray \(menu): \(error)") }
        bus.onDisconnect = { [unowned tray, menu] error in tray.busFailed(menu: menu, error) }
        do {
            try bus.publish(statusNotifierInterface(), at: Self.itemPath)
            try bus.publish(dbusMenuInterface(), at: Self.menuPath)
        } catch {
            bus.close()
            throw error
        }
        shown = (title, icon)
        bus.onSignal(
            sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "NameOwnerChanged"
        ) { [weak self] message in
            guard let self, let name = try? message.readString(), name == Self.watcherName,
                (try? message.readString()) != nil, let owner = try? message.readString(), !owner.isEmpty
            else { return }
            self.register()
        }
        bus.requestName(busName) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success: self.register()
            case .failure(let error): logger.warning("tray \(menu): cannot own \(self.busName): \(error)")
            }
        }
    }

    /// Tells the watcher about the item; without a watcher it waits for one.
    private func register() {
        bus.call(
            destination: Self.watcherName, path: "/StatusNotifierWatcher", interface: Self.watcherName,
            member: "RegisterStatusNotifierItem", arguments: [.string(busName)]
        ) { [weak tray, menu, busName] result in
            guard let tray else { return }
            switch result {
            case .success: tray.logger.info("tray \(menu): registered \(busName)")
            case .failure(let error):
                tray.logger.info("tray \(menu): not registered yet (\(error.message)); waiting for a watcher")
            }
        }
    }

    /// The daemon changed (one event group): what changed in the menu, and the
    /// item's title and icon if they changed. A host that has fetched the layout is
    /// told which entries changed (``TrayMenuUpdate``); one that has not, only that
    /// the layout did.
    ///
    /// `changes`, when known (nil after a reload): what the group did. Expansion is
    /// not the tray's (it shows every node, open or not), so a change of it alone
    /// sends nothing to a host that has the menu; a change of values alone is sent
    /// entry by entry
    /// (``valuesChanged(_:revision:)``), in time that grows with what changed.
    func changed(revision: UInt32, changes: [Change]? = nil) {
        if let changes, changes.allSatisfy({ $0.nodeSplices.isEmpty }) {
            let values = changes.flatMap(\.valueChanged)
            if !values.isEmpty {
                valuesChanged(values, revision: revision)
            } else if known == nil {
                // A host that has not fetched the menu only hears that it changed.
                layoutUpdated(revision: revision, parent: 0)
            }
        } else if let old = built?.menu {
            signal(TrayMenuUpdate(from: old, to: layout), revision: revision)
        } else {
            layoutUpdated(revision: revision, parent: 0)
        }
        let now = (title: title, icon: icon)
        if let shown, shown.title != now.title {
            for signal in ["NewTitle", "NewToolTip"] {
                bus.emit(path: Self.itemPath, interface: "org.kde.StatusNotifierItem", member: signal, [])
            }
        }
        if let shown, shown.icon != now.icon {
            bus.emit(path: Self.itemPath, interface: "org.kde.StatusNotifierItem", member: "NewIcon", [])
        }
        shown = now
    }

    /// Nodes' values changed: the entries that show them (their own, their options',
    /// a range's steps, and the titles that read them) are made again and compared
    /// with what the host was told; those that differ are sent as new properties.
    private func valuesChanged(_ nodes: [Int], revision: UInt32) {
        built = nil
        guard var known else { return layoutUpdated(revision: revision, parent: 0) }
        // Taken out while it is changed, so that it is changed in place, not copied.
        self.known = nil
        let model = tray.model
        var check: Set<Int> = []
        for n in nodes where model.tree.id(model.topLevel(of: n)) == menu {
            check.insert(n)
            check.formUnion(model.tree.children(n))
            check.formUnion(model.readers(of: n))
        }
        var updated: [TrayEntry] = []
        var moved = false
        func visit(_ entry: TrayEntry) {
            if let old = known[entry.key] {
                if !old.showsTheSame(as: entry) { updated.append(entry) }
            } else {
                moved = true
            }
            known[entry.key] = entry
            for child in entry.children { visit(child) }
        }
        for n in check.sorted() { visit(TrayMenu.entry(for: model.row(of: n))) }
        self.known = known
        if moved {
            // An entry the host has not had (a range's steps changed with its
            // bounds): its layout is fetched anew.
            self.known = nil
            return layoutUpdated(revision: revision, parent: 0)
        }
        propertiesUpdated(updated)
    }

    /// dbusmenu's `ItemsPropertiesUpdated` with `entries`' properties, if any.
    private func propertiesUpdated(_ entries: [TrayEntry]) {
        guard !entries.isEmpty else { return }
        let values: [BusValue] = entries.map { entry in
            .structure([.int32(ids.id(for: entry.key)), .properties(entry.properties)])
        }
        bus.emit(
            path: Self.menuPath, interface: "com.canonical.dbusmenu", member: "ItemsPropertiesUpdated",
            [.array(element: "(ia{sv})", values), .array(element: "(ias)", [])])
    }

    /// One submenu's entries changed: that submenu's layout; several: the whole
    /// menu's. Entries changed in place outside them: their new properties.
    private func signal(_ update: TrayMenuUpdate, revision: UInt32) {
        if let submenu = update.changedSubmenus.first {
            let parent = update.changedSubmenus.count == 1 ? ids.id(for: submenu) : 0
            layoutUpdated(revision: revision, parent: parent)
            if parent == 0 { return }
        }
        propertiesUpdated(update.changedEntries)
    }

    /// Asks the host to pop up this item's menu: dbusmenu's
    /// `ItemActivationRequested` on the root. KDE's Plasma honours it; GTK hosts
    /// (xfce4-panel, waybar) ignore it.
    func requestShowing() {
        bus.emit(
            path: Self.menuPath, interface: "com.canonical.dbusmenu", member: "ItemActivationRequested",
            [.int32(0), .uint32(0)])
    }

    private func layoutUpdated(revision: UInt32, parent: Int32) {
        bus.emit(
            path: Self.menuPath, interface: "com.canonical.dbusmenu", member: "LayoutUpdated",
            [.uint32(revision), .int32(parent)])
    }

    func close() {
        bus.close()
    }

    /// The host is about to show `entry`'s submenu. The menu's own entry shown is a
    /// new showing of the whole menu: no submenu is shown in it yet. Returns whether
    /// this is the submenu's first showing since then (always, for the menu's own).
    func shown(_ key: TrayEntryKey) -> Bool {
        guard case .node(let path) = key else { return false }
        if path == menu { hidden(nil) }
        return showing.insert(path).inserted
    }

    /// The host hid its whole menu (a click closes it, and so does the menu's own
    /// `closed`). A submenu's `closed` is not its last: GTK hosts send it between the
    /// several showings of one opening.
    func hidden(_ key: TrayEntryKey?) {
        guard key == nil || key == .node(path: menu) else { return }
        showing.removeAll()
    }

    /// The menu's entries now.
    var layout: TrayMenu {
        if let built, built.revision == tray.revision, built.model == tray.model.revision {
            return built.menu
        }
        let model = tray.model
        let made = TrayMenu(rows: (try? model.tree(under: menu)) ?? []) { row in
            model.tree.node(at: row.path).flatMap(model.question(of:))
        }
        built = (tray.revision, model.revision, made)
        known = made.entries
        return made
    }

    /// What a host's id names, checked against the model rather than a layout, so
    /// that a click or a submenu shown builds no menu; the error for an id that names
    /// nothing in this menu now.
    func key(_ id: Int32) throws(BusReplyError) -> TrayEntryKey {
        guard let key = ids.key(for: id), key.path == menu || key.path.hasPrefix(menu + "/"),
            tray.model.tree.node(at: key.path) != nil
        else { throw .invalidArguments("no menu entry \(id) in menu '\(menu)'") }
        return key
    }

    /// The entry a host's id names, or the error for a host that named none.
    func entry(_ id: Int32) throws(BusReplyError) -> TrayEntry {
        guard let key = ids.key(for: id), let entry = layout.entries[key] else {
            throw .invalidArguments("no menu entry \(id) in menu '\(menu)'")
        }
        return entry
    }

    var title: String {
        guard let n = tray.model.tree.node(at: menu) else { return menu }
        return tray.model.title(of: n)
    }

    var icon: String {
        guard let icon = (try? tray.model.get(menu))?.icon, !icon.isEmpty else {
            return Self.defaultIcon
        }
        return icon
    }

    /// For a menu without an `icon`: the freedesktop icon of a menu button.
    static let defaultIcon = "open-menu-symbolic"
}
