import CGtk
import MenuClient
import MenuPopup
import MenuProtocol
import MenuSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The popup's window: the rows of a menu as the daemon has them, in a scrolled
/// list, kept in step with the daemon through the session's events. After every
/// event group it asks for the rows and the focus again (as `menuctl watch` does),
/// keeping the views of rows that are still there, so that a change made anywhere
/// (a bar, the tray, a key binding, the system) shows at once.
final class PopupWindow {
    private let session: PopupSession
    /// The top-level menu shown, or nil for every one.
    private let menu: String?
    private let placement: PopupPlacement
    /// Whether it stays running when it closes, hidden until it is opened again.
    private let resident: Bool
    /// Whether the window is open: shown, or to be shown once the rows are in.
    private var isOpen: Bool
    let window: UnsafeMutablePointer<GtkWidget>
    private let scrolled: UnsafeMutablePointer<GtkWidget>
    /// The rows; hidden while the search shows its answers instead.
    private let rows: AccordionList
    private var search: PopupSearch!
    private var focusedPath: String?
    private var refreshing = false
    private var refreshAgain = false
    private var shown = false
    /// Whether the window has had the keyboard since it opened.
    private var wasActive = false
    /// Why the popup ended, when it ended on an error: printed on exit.
    private(set) var failure: String?

    /// A resident popup starts hidden, and ``toggle()`` opens and closes it.
    init(session: PopupSession, menu: String?, placement: PopupPlacement, resident: Bool = false) {
        self.session = session
        self.menu = menu
        self.placement = placement
        self.resident = resident
        isOpen = !resident
        window = gtk_window_new(GTK_WINDOW_TOPLEVEL)
        gtk_widget_set_name(window, "menud-popup")
        scrolled = gtk_scrolled_window_new(nil, nil)
        gtk_scrolled_window_set_policy(gtk(scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_propagate_natural_height(gtk(scrolled), 1)
        gtk_scrolled_window_set_max_content_height(gtk(scrolled), 600)
        gtk_widget_set_size_request(scrolled, 300, -1)
        rows = AccordionList(session: session, adjustment: gtk_scrolled_window_get_vadjustment(gtk(scrolled)))
        let column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        gtk_container_add(gtk(scrolled), column)
        gtk_container_add(gtk(column), rows.widget)
        search = PopupSearch(menu: menu) { [weak self] words, done in self?.request(words, done) }
        gtk_container_add(gtk(column), search.list)
        let frame = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        gtk_container_add(gtk(frame), search.entry)
        gtk_container_add(gtk(frame), scrolled)
        gtk_container_add(gtk(window), frame)
        search.onEnd = { [weak self] in self?.searchEnded() }
        search.onChoose = { [weak self] found in self?.chose(found) }
        placement.apply(to: window)
        GSignal.withArgument(rows.list, "row-activated") { [weak self] row in self?.clicked(row) }
        GSignal.event(window, "key-press-event") { [weak self] event in
            guard let self, let event else { return false }
            return self.key(gtk(event))
        }
        GSignal.event(window, "button-press-event") { [weak self] event in
            guard let self, let event else { return false }
            return self.pressed(gtk(event))
        }
        GSignal.event(window, "grab-broken-event") { [weak self] event in
            self?.grabBroken(gtk(event))
            return false
        }
        GSignal.withArgument(window, "notify::is-active") { [weak self] _ in self?.activeChanged() }
        GSignal.event(window, "map-event") { [weak self] _ in
            self?.mapped()
            return false
        }
        GSignal.event(window, "delete-event") { [weak self] _ in
            self?.close()
            return true
        }
        session.onEvents = { [weak self] records in
            guard let self else { return }
            // The focus at once: the rows asked for next may wait behind a held reply.
            if let focus = records.last(where: { $0.first == "focus" && $0.count > 2 }),
                self.menu == nil || focus[1] == self.menu
            {
                self.focusedPath = focus[2]
            }
            self.refresh()
        }
    }

    /// Asks for the rows and the focus, then shows the window once they are in.
    func start(at path: String?) {
        if let path {
            request(["open", path]) { [weak self] reply in
                if !reply.isOK { self?.fail("--at \(path): \(reply.errorMessage ?? reply.terminator)") }
            }
        }
        refresh()
    }

    /// Reads what the daemon sent; ends the popup when the daemon went away.
    func readDaemon() -> Bool {
        do {
            try session.readAvailable()
            return true
        } catch {
            fail("\(error)")
            return false
        }
    }

    /// Closes the popup: a resident one hides, to be opened again, and others end.
    func close() {
        guard resident else {
            gtk_main_quit()
            return
        }
        guard isOpen else { return }
        isOpen = false
        if search.isActive {
            search.end()
            gtk_widget_show(rows.widget)
        }
        gtk_widget_hide(window)
    }

    /// Opens a resident popup that is closed, at the pointer on X11, and closes one
    /// that is open: another run of menud-popup asks for it.
    func toggle() {
        guard !isOpen else {
            close()
            return
        }
        isOpen = true
        placement.place(window)
        if shown { gtk_widget_show(window) }
        refresh()
    }

    func fail(_ message: String) {
        if failure == nil { failure = message }
        gtk_main_quit()
    }

    private func request(_ words: [String], _ done: @escaping (ProtocolReply) -> Void = { _ in }) {
        do {
            try session.send(words, done: done)
        } catch {
            fail("\(error)")
        }
    }

    private func refresh() {
        guard !refreshing else {
            refreshAgain = true
            return
        }
        refreshing = true
        var lines = RowLines([])
        request(["rows"] + (menu.map { [$0] } ?? [])) { [weak self] reply in
            guard let self else { return }
            guard reply.isOK else {
                self.fail("menud refused the rows: \(reply.errorMessage ?? reply.terminator)")
                return
            }
            lines = RowLines(reply.lines)
        }
        request(["focused"] + (menu.map { [$0] } ?? [])) { [weak self] reply in
            guard let self else { return }
            let focus = reply.lines.lazy.map(ProtocolFields.fields(of:)).first { $0.first == "focus" }
            self.show(lines, focus: focus.flatMap { $0.count > 2 ? $0[2] : nil })
            self.refreshing = false
            if self.refreshAgain {
                self.refreshAgain = false
                self.refresh()
            }
        }
    }

    private func show(_ lines: RowLines, focus: String?) {
        rows.show(lines, focus: focus)
        focusedPath = focus
        if !shown {
            shown = true
            // Every widget shown now, the window itself only when open.
            gtk_widget_show_all(gtk_bin_get_child(gtk(window)))
            if isOpen { gtk_widget_show(window) }
        }
    }

    private func clicked(_ row: UnsafeMutableRawPointer?) {
        guard let row, let view = rows.views.first(where: { UnsafeMutableRawPointer($0.row) == row }) else {
            return
        }
        request(["focus", view.record.path])
        let path = view.record.path
        let loading = loadingRow { path }
        view.activate { [weak self] reply in
            loading.finish()
            self?.acted(reply)
        }
    }

    /// "Loading…" under the group `path` names if the reply to come is slow and the
    /// group is still closed: one that the reply waits to open. The path is asked
    /// for when it shows, since a key acts on the focus the daemon has then.
    private func loadingRow(opening path: @escaping () -> String?) -> LoadingRow {
        LoadingRow(list: rows.list) { [weak self] in
            guard let self, let path = path(), let view = self.rows.view(at: path),
                view.record.type == "group",
                view.record.state == "collapsed",
                let index = self.rows.views.firstIndex(where: { $0 === view })
            else { return nil }
            return (index, view.record.depth)
        }
    }

    private var editing: RowView? { rows.editing }

    /// An item that ran closes the popup; a refused action is shown where the popup
    /// was started from (stderr), and the popup stays.
    private func acted(_ reply: ProtocolReply) {
        if reply.lines.contains(where: { $0.hasPrefix("ran\t") }) {
            close()
        } else if let message = reply.errorMessage, reply.errorCode != "not-activatable" {
            WriteAll.errorLine("menud-popup: \(message)")
        }
    }

    private func key(_ event: UnsafeMutablePointer<GdkEventKey>?) -> Bool {
        let keyval = menud_popup_event_keyval(event)
        let state = menud_popup_event_state(event)
        if search.isActive { return searchKey(keyval) }
        if let editing {
            switch editing.editKey(keyval) {
            case .taken: return true
            case .toWidget: return false
            case .toRow: break
            }
        }
        if let text = PopupKeys.searchStart(keyval: keyval, state: state) {
            gtk_widget_hide(rows.widget)
            search.begin(with: text)
            return true
        }
        let focused = focusedPath.flatMap(rows.view(at:))
        guard
            let action = PopupKeys.action(
                keyval: keyval, state: state, focusedType: focused?.record.type)
        else { return false }
        let menuWords = menu.map { [$0] } ?? []
        switch action {
        case .close:
            close()
        case .nav("activate", _) where focused?.isEditable == true:
            focused?.edit()
        case .nav(let move, let times):
            let opens = move == "activate" || move == "right"
            let loading = opens ? loadingRow { [weak self] in self?.focusedPath } : nil
            for k in 0..<times {
                request(["nav", move] + menuWords) { [weak self] reply in
                    if k == times - 1 {
                        loading?.finish()
                        self?.acted(reply)
                    }
                }
            }
        case .key(let key):
            request(["nav", "key", key] + menuWords) { [weak self] reply in self?.acted(reply) }
        }
        return true
    }

    /// A key while the search is on: Escape ends it, Up and Down (and Page Up and
    /// Down) move among the answers, Enter chooses one; the rest edit the query.
    private func searchKey(_ keyval: guint) -> Bool {
        switch Int32(keyval) {
        case GDK_KEY_Escape:
            search.end()
            searchEnded()
        case GDK_KEY_Down, GDK_KEY_KP_Down: search.move(1)
        case GDK_KEY_Up, GDK_KEY_KP_Up: search.move(-1)
        case GDK_KEY_Page_Down, GDK_KEY_KP_Page_Down: search.move(PopupKeys.page)
        case GDK_KEY_Page_Up, GDK_KEY_KP_Page_Up: search.move(-PopupKeys.page)
        case GDK_KEY_Return, GDK_KEY_KP_Enter: search.chooseSelected()
        default: return false
        }
        return true
    }

    /// Back to the accordion, as the daemon has it.
    private func searchEnded() {
        gtk_widget_show(rows.widget)
        refresh()
    }

    /// An answer chosen: shown as if its groups had been opened to reach it (`open`
    /// focuses it and opens it when it is a group or a choice), then acted on as
    /// `menuctl pick --search` does: an item runs, a toggle flips, an option is
    /// picked; a range, text or date has the focus, for its value.
    private func chose(_ found: FoundRecord) {
        gtk_widget_show(rows.widget)
        request(["open", found.path]) { [weak self] reply in
            if !reply.isOK { self?.acted(reply) }
        }
        switch found.type {
        case "item", "toggle", "option":
            request(["activate", found.path]) { [weak self] reply in self?.acted(reply) }
        default:
            break
        }
        refresh()
    }

    /// X11: a press outside the window closes it (the popup holds the pointer).
    private func pressed(_ event: UnsafeMutablePointer<GdkEventButton>?) -> Bool {
        guard let event, !PopupPlacement.isLayerSurface else { return false }
        var width: Int32 = 0
        var height: Int32 = 0
        gtk_window_get_size(gtk(window), &width, &height)
        var x: Int32 = 0
        var y: Int32 = 0
        gtk_window_get_position(gtk(window), &x, &y)
        let rootX = Int32(event.pointee.x_root)
        let rootY = Int32(event.pointee.y_root)
        if rootX < x || rootY < y || rootX >= x + width || rootY >= y + height {
            close()
            return true
        }
        return false
    }

    /// Wayland: the keyboard, which the popup holds exclusively, can go only to a
    /// surface the compositor puts above it (a launcher on the overlay layer, a lock
    /// screen): the popup closes then, as a menu does when it loses the focus.
    private func activeChanged() {
        guard PopupPlacement.isLayerSurface else { return }
        if gtk_window_is_active(gtk(window)) != 0 {
            wasActive = true
        } else if wasActive {
            wasActive = false
            close()
        }
    }

    /// X11: the popup's grab ends when its window can no longer be seen (the window
    /// manager unmapped it, another workspace was shown): it closes, as a menu does.
    /// A grab taken by one of its own widgets (`grab_window` set) is not a loss.
    private func grabBroken(_ event: UnsafeMutablePointer<GdkEventGrabBroken>?) {
        guard let event, !PopupPlacement.isLayerSurface, event.pointee.grab_window == nil,
            event.pointee.implicit == 0
        else { return }
        close()
    }

    /// Once shown, the rows are scrolled to the focus. X11: it is kept on the screen
    /// and takes the keyboard and pointer, as a menu does, so that keys reach it
    /// without a window manager's focus.
    private func mapped() {
        rows.mapped()
        placement.keepOnScreen(window)
        guard !PopupPlacement.isLayerSurface else { return }
        grab(tries: 20)
    }

    private func grab(tries: Int) {
        let seat = gdk_display_get_default_seat(gdk_display_get_default())
        let status = gdk_seat_grab(
            seat, gtk_widget_get_window(window), GDK_SEAT_CAPABILITY_ALL, 1, nil, nil, nil, nil)
        guard status != GDK_GRAB_SUCCESS, tries > 1 else { return }
        // Another client (the bar that was clicked) may hold the pointer a moment.
        GTimeout.once(after: 50) { [weak self] in self?.grab(tries: tries - 1) }
    }
}
