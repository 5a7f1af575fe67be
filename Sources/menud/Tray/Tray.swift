import Logging
import MenuBus
import MenuCore
import MenuLoop
import MenuProtocol

/// menud's menus in the system tray: one ``TrayItem`` per top-level menu, kept in
/// step with the daemon. It acts through the daemon's commands like any other client
/// (``CommandCaller``), and listens to its events: every event group with expansion,
/// value or config records, from any client, is one `LayoutUpdated`
/// whose revision is the group's sequence number, so it only grows; and a reload
/// adds and removes items as menus come and go.
///
/// Without a session bus the tray does not start (``start()`` throws, and the daemon
/// says why); the daemon serves as before. If the bus goes away later, the tray logs
/// one line and stays off.
final class Tray {
    let logger: Logger
    private let menu: ServedMenu
    private let events: EventHub
    private let caller: CommandCaller
    private let popup: PopupLauncher
    private let loop: EventLoop
    /// The event hub's number for this tray's listening, while it runs.
    private var listener: Int?
    private var items: [String: TrayItem] = [:]
    /// The last event group's sequence number, as dbusmenu's revision.
    private(set) var revision: UInt32 = 0
    private var nextNumber = 1
    private(set) var isRunning = false

    init(
        menu: ServedMenu, events: EventHub, caller: CommandCaller, popup: PopupLauncher, loop: EventLoop,
        logger: Logger
    ) {
        self.menu = menu
        self.events = events
        self.caller = caller
        self.popup = popup
        self.loop = loop
        self.logger = logger
    }

    /// A tray let go of without ``stop()`` leaves the hub all the same.
    deinit { if let listener { events.stopListening(listener) } }

    var model: MenuModel { menu.model }

    /// Publishes the menus; fails, leaving the tray off, when there is no bus.
    func start() throws(BusError) {
        guard !isRunning else { return }
        isRunning = true
        revision = UInt32(truncatingIfNeeded: events.sequence)
        // Unowned: the hub is the daemon's and outlives a tray, which stops
        // listening when it stops.
        let show: (String) -> Void = { [unowned self] menu in self.items[menu]?.requestShowing() }
        listener = events.listen(topics: [.expansion, .value, .config], show: show) {
            [unowned self] notice in
            self.changed(notice)
        }
        do throws(BusError) {
            try syncItems()
        } catch {
            stop()
            throw error
        }
    }

    func stop() {
        guard isRunning else { return }
        isRunning = false
        if let listener { events.stopListening(listener) }
        listener = nil
        for item in items.values { item.close() }
        items = [:]
    }

    /// A bus connection failed: the bus is gone, and the tray with it.
    func busFailed(menu: String, _ error: BusError) {
        guard isRunning else { return }
        logger.warning("tray: lost the session bus (\(error)); the tray is off")
        stop()
    }

    /// Runs a command for a click or a submenu shown; `reply` hears the change it
    /// made, or why it was refused.
    func call(_ call: MenuCall, reply: @escaping (Result<Change, ProtocolError>) -> Void) {
        guard isRunning else { return reply(.failure(ProtocolError(.internal, "the tray is off"))) }
        caller.call(call, reply: reply)
    }

    /// Opens the popup on this daemon (``PopupLauncher``); while one is open, the
    /// popup started closes it, so that one click opens and the next closes. Throws,
    /// changing nothing, when no popup can be started.
    func startPopup() throws(ProtocolError) {
        guard isRunning else { throw ProtocolError(.internal, "the tray is off") }
        try popup.start()
    }

    /// One event group: the items of the menus it changed tell their hosts. A
    /// reload may have changed anything; other groups say what they changed.
    private func changed(_ notice: EventNotice) {
        revision = UInt32(truncatingIfNeeded: notice.sequence)
        do throws(BusError) {
            try syncItems()
        } catch {
            logger.warning("tray: no session bus for a new item (\(error)); the tray is off")
            return stop()
        }
        guard !notice.topics.contains(.config) else {
            for item in items.values { item.changed(revision: revision, change: nil) }
            return
        }
        // Told as one, so that every node is numbered in the model as it is now.
        let change = Change(composing: notice.changes)
        var menus: Set<String> = []
        for n in change.expansionChanged + change.valueChanged + change.splicedGroups {
            menus.insert(model.tree.id(model.topLevel(of: n)))
        }
        for menu in menus { items[menu]?.changed(revision: revision, change: change) }
    }

    /// One item for each top-level menu: new menus get one, removed menus lose theirs.
    private func syncItems() throws(BusError) {
        let menus = model.tree.topLevel.map { model.tree.id($0) }
        for (menu, item) in items where !menus.contains(menu) {
            item.close()
            items[menu] = nil
        }
        for menu in menus where items[menu] == nil {
            items[menu] = try TrayItem(menu: menu, number: nextNumber, tray: self, loop: loop)
            nextNumber += 1
        }
    }
}
