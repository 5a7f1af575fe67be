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
    /// What the host was told of the menu, to tell it changes entry by entry.
    private var view = TrayHostView()
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

    /// The daemon changed (one event group): the entries whose properties changed,
    /// the submenus whose entries did, and the item's title and icon if they changed,
    /// all in time that grows with the change and not with the menu. A host that
    /// has fetched no layout only hears that the layout changed.
    ///
    /// `change`, when known (nil after a reload, which may have changed anything):
    /// what the group did, as one change. Expansion is not the tray's (it shows every node, open or
    /// not), so a change of it alone sends nothing to a host that has the menu.
    func changed(revision: UInt32, change: Change?) {
        if let change, view.hasLayout {
            told(change, revision: revision)
        } else {
            view.forgetAll()
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

    /// Tells the host what `change` did to the entries it has: the groups whose
    /// children were replaced have their submenu fetched anew, and the entries
    /// that show a changed value (their own, their options', a range's steps, the
    /// titles that read them, and the replaced groups' own) are compared with what
    /// the host was told; those that differ are sent as new properties. One submenu
    /// changed is a `LayoutUpdated` naming it; more than one, the whole menu's.
    private func told(_ change: Change, revision: UInt32) {
        let model = tray.model
        let tree = model.tree
        func inMenu(_ n: Int) -> Bool { tree.id(model.topLevel(of: n)) == menu }
        var submenus: [TrayEntryKey] = []
        var check: Set<Int> = []
        let replaced = change.splicedGroups.filter(inMenu)
        for g in replaced {
            let key = TrayEntryKey.node(path: tree.path(g))
            if view.replacedEntries(of: key) { submenus.append(key) }
            check.insert(g)
        }
        for n in change.valueChanged where inMenu(n) {
            // The replaced groups' entries are fetched whole.
            if replaced.contains(where: { tree.descendants($0).contains(n) }) { continue }
            check.insert(n)
            check.formUnion(tree.children(n))
            check.formUnion(model.readers(of: n))
        }
        var updated: [TrayEntry] = []
        for n in check.sorted() {
            let entry = TrayMenu.entry(of: n, in: model, depth: 0)
            view.compare(entry, complete: tree.kind(n) == .range, changed: &updated, submenus: &submenus)
        }
        if let submenu = submenus.first {
            let parent = submenus.count == 1 ? ids.id(for: submenu) : 0
            layoutUpdated(revision: revision, parent: parent)
            if parent == 0 { return view.forgetAll() }
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

    /// What a host's id names, checked against the model rather than a layout, so
    /// that a click or a submenu shown builds no menu; the error for an id that names
    /// nothing in this menu now.
    func key(_ id: Int32) throws(BusReplyError) -> TrayEntryKey {
        guard let key = ids.key(for: id), key.path == menu || key.path.hasPrefix(menu + "/"),
            tray.model.tree.node(at: key.path) != nil
        else { throw .invalidArguments("no menu entry \(id) in menu '\(menu)'") }
        return key
    }

    /// The entry a host's id names, with its entries `depth` levels down (see
    /// ``TrayMenu/entry(of:in:depth:)``), or the error for a host that named none.
    func entry(_ id: Int32, depth: Int32 = 0) throws(BusReplyError) -> TrayEntry {
        let key = try key(id)
        let model = tray.model
        // `key` checked that its node is in the menu.
        let n = model.tree.node(at: key.path)!
        if case .node = key { return TrayMenu.entry(of: n, in: model, depth: depth) }
        guard let entry = TrayMenu.entry(of: n, in: model, depth: 0).children.first(where: { $0.key == key })
        else { throw .invalidArguments("no menu entry \(id) in menu '\(menu)'") }
        return entry
    }

    /// The host fetched `entry`'s layout `depth` levels down: what it was told.
    func fetched(_ entry: TrayEntry, depth: Int32) {
        view.fetched(entry, depth: depth, isWholeMenu: entry.key == .node(path: menu))
    }

    var title: String {
        guard let n = tray.model.tree.node(at: menu) else { return menu }
        return tray.model.title(of: n)
    }

    var icon: String {
        guard let icon = tray.model.tree.node(at: menu).map(tray.model.get(node:))?.icon, !icon.isEmpty else {
            return Self.defaultIcon
        }
        return icon
    }

    /// For a menu without an `icon`: the freedesktop icon of a menu button.
    static let defaultIcon = "open-menu-symbolic"
}
