import CGtk
import MenuPopup
import MenuProtocol

/// The accordion's rows on screen: a list box of row views, kept in step with the
/// rows the daemon sends. Views of rows still there are kept and updated, so that
/// a control being used is not made again under the pointer. A long list has views
/// only for a window of rows around what is on screen (``RowWindow``), the rows
/// before and after it stood in for by space of their height, and the window
/// follows the scrolling and the focus.
final class AccordionList {
    /// The list between its two spaces, to be put where the rows show.
    let widget: UnsafeMutablePointer<GtkWidget>
    /// The list box that holds the views.
    let list: UnsafeMutablePointer<GtkWidget>
    private let above: UnsafeMutablePointer<GtkWidget>
    private let below: UnsafeMutablePointer<GtkWidget>
    /// The vertical scrolling of the scrolled window the list is in.
    private let adjustment: UnsafeMutablePointer<GtkAdjustment>
    private let session: PopupSession
    /// Every row the daemon sent, and where each path is among them.
    private var records = RowLines([])
    private var indexes: [String: Int] = [:]
    /// The rows that have views: these views, in the list's order, and by path.
    private var rowWindow = RowWindow()
    private(set) var views: [RowView] = []
    private var byPath: [String: RowView] = [:]
    /// A row's height as last measured, and the one the spaces were made with.
    private var rowHeight: Int32 = 30
    private var spaceRowHeight: Int32 = 30
    /// A scroll to make once the list is laid out again: to the focused row, or
    /// keeping a row where it was on screen while the window moved under it.
    private enum Scroll {
        case toFocus
        case keep(index: Int, offset: Double)
    }
    private var pendingScroll: Scroll?
    /// True while the list is changed from here, whose scrolling then is not the
    /// user's.
    private var arranging = false
    /// The focused row's path, as last shown; it tells a move of the focus from a
    /// scroll.
    private var focused: String?
    /// Whether rows were shown already: rows that come later slide in.
    private var filled = false

    init(session: PopupSession, adjustment: UnsafeMutablePointer<GtkAdjustment>) {
        self.session = session
        self.adjustment = adjustment
        list = gtk_list_box_new()
        gtk_list_box_set_selection_mode(gtk(list), GTK_SELECTION_SINGLE)
        gtk_list_box_set_activate_on_single_click(gtk(list), 1)
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        above = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        below = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        gtk_container_add(gtk(widget), above)
        gtk_container_add(gtk(widget), list)
        gtk_container_add(gtk(widget), below)
        GSignal.plain(adjustment, "value-changed") { [weak self] in self?.scrolledBy() }
        GSignal.withArgument(widget, "size-allocate") { [weak self] _ in self?.laidOut() }
    }

    /// The view of the row at `path`, when it has one.
    func view(at path: String) -> RowView? { byPath[path] }

    /// The row whose value is being edited (a text's entry, a date's calendar), which
    /// takes the keys: asked of the rows, which know, rather than kept beside them.
    var editing: RowView? { views.first(where: \.isEditing) }

    /// Shows `rows`: views of rows still there are kept and updated, new ones are
    /// made (and revealed with an animation once the popup is open), and gone ones
    /// destroyed. A focus that moved is scrolled to, in a long list with the window
    /// moved to it first.
    func show(_ rows: RowLines, focus: String?) {
        let before = indexes
        records = rows
        indexes = Dictionary(
            rows.paths.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let moved = focus != focused
        let was = arranging
        arranging = true
        defer { arranging = was }
        focused = focus
        rowWindow.update(
            count: rows.count, visible: visibleRows(), focus: moved ? focus.flatMap { indexes[$0] } : nil)
        if moved { pendingScroll = .toFocus }
        let changed = makeViews { before[$0] == nil }
        if let focus, let view = byPath[focus] {
            gtk_list_box_select_row(gtk(list), gtk(view.row))
            // An edit under way keeps the keyboard.
            if editing == nil { gtk_widget_grab_focus(view.row) }
        } else {
            gtk_list_box_unselect_all(gtk(list))
        }
        if moved, !changed, filled, scrollToFocus() { pendingScroll = nil }
        filled = true
    }

    /// Makes the views of the window's rows: keeps those of rows still there, makes
    /// the others (animated when `isNew` says the row was not there before), and
    /// destroys the views of rows gone or out of the window. Returns whether the
    /// list changed, and so is to be laid out again.
    private func makeViews(isNew: (String) -> Bool) -> Bool {
        let was = arranging
        arranging = true
        defer { arranging = was }
        var kept: [String: RowView] = [:]
        var next: [RowView] = []
        var made = false
        // New rows slide in when they are few (a group of a screenful opened); a long
        // run of them (a group of thousands, the window moved) shows at once.
        let fresh = filled ? rowWindow.range.count(where: { isNew(records.paths[$0]) }) : 0
        let slide = fresh <= Self.slidingRows
        var reused: Set<ObjectIdentifier> = []
        for record in rowWindow.range.compactMap(records.record) {
            if let view = byPath[record.path], view.fits(record) {
                view.show(record)
                reused.insert(ObjectIdentifier(view))
                kept[record.path] = view
                next.append(view)
            } else {
                let view = RowView(record, session: session, slidesIn: slide && filled && isNew(record.path))
                made = true
                kept[record.path] = view
                next.append(view)
            }
        }
        let staying = views.filter { reused.contains(ObjectIdentifier($0)) }
        let inOrder =
            staying.map(ObjectIdentifier.init)
            == next.filter { reused.contains(ObjectIdentifier($0)) }.map(ObjectIdentifier.init)
        let changed = made || staying.count != views.count || !inOrder
        for view in views where !reused.contains(ObjectIdentifier(view)) { gtk_widget_destroy(view.row) }
        if inOrder {
            // The views kept are in order: only the new ones go in, each at its place.
            for (k, view) in next.enumerated() where !reused.contains(ObjectIdentifier(view)) {
                gtk_list_box_insert(gtk(list), view.row, Int32(k))
            }
        } else {
            for view in staying {
                g_object_ref(view.row)
                gtk_container_remove(gtk(list), view.row)
            }
            for (k, view) in next.enumerated() {
                gtk_list_box_insert(gtk(list), view.row, Int32(k))
                if reused.contains(ObjectIdentifier(view)) { g_object_unref(view.row) }
            }
        }
        if filled { for view in next where !reused.contains(ObjectIdentifier(view)) { view.reveal() } }
        views = next
        byPath = kept
        let spaces = changed || spaceRowHeight != rowHeight
        spaceRowHeight = rowHeight
        gtk_widget_set_size_request(above, -1, Int32(rowWindow.range.lowerBound) * spaceRowHeight)
        gtk_widget_set_size_request(
            below, -1, Int32(records.count - rowWindow.range.upperBound) * spaceRowHeight)
        return changed || spaces
    }

    /// The most new rows that slide in: about a screenful.
    static let slidingRows = 30

    /// The rows on screen now, as far as the layout says.
    private func visibleRows() -> Range<Int> {
        guard records.count > 0 else { return 0..<0 }
        let top = gtk_adjustment_get_value(adjustment)
        let page = gtk_adjustment_get_page_size(adjustment)
        let windowHeight = Double(gtk_widget_get_allocated_height(list))
        func row(_ y: Double) -> Int {
            rowWindow.row(
                at: y, count: records.count, rowHeight: Double(spaceRowHeight), windowHeight: windowHeight)
        }
        return row(top)..<(row(top + max(page, 1)) + 1)
    }

    /// The list scrolled (the wheel, the scroll bar): the window follows what is on
    /// screen, keeping the top row where it is.
    private func scrolledBy() {
        guard !arranging, pendingScroll == nil, records.count > rowWindow.capacity else { return }
        let visible = visibleRows()
        var next = rowWindow
        guard next.update(count: records.count, visible: visible) else { return }
        let top = visible.lowerBound
        let offset = y(ofRow: top).map { $0 - gtk_adjustment_get_value(adjustment) } ?? 0
        rowWindow = next
        _ = makeViews { _ in false }
        pendingScroll = .keep(index: top, offset: offset)
    }

    /// The window came on screen: a scroll asked for before can be made now.
    func mapped() { laidOut() }

    /// The list was laid out: the row height measured, and a scroll waiting made.
    private func laidOut() {
        let heights = views.compactMap(\.shownHeight).sorted()
        if !heights.isEmpty { rowHeight = max(heights[heights.count / 2], 1) }
        guard let scroll = pendingScroll else { return }
        switch scroll {
        case .toFocus:
            // Not placed yet (the window not on screen): the next layout will tell.
            guard scrollToFocus() else { return }
        case .keep(let index, let offset):
            if let y = y(ofRow: index) { gtk_adjustment_set_value(adjustment, y - offset) }
        }
        pendingScroll = nil
    }

    /// Scrolls the focused row into view; false when it has a view not placed yet.
    @discardableResult
    private func scrollToFocus() -> Bool {
        guard let focus = focused, let view = byPath[focus] else { return true }
        guard let y = y(ofRow: indexes[focus] ?? -1), gtk_widget_get_mapped(view.row) != 0 else {
            return false
        }
        gtk_adjustment_clamp_page(adjustment, y, y + Double(gtk_widget_get_allocated_height(view.row)))
        return true
    }

    /// Where the row at `index` starts in the scrolled list: from its view when it
    /// has one, and from the space before the window when it is there.
    private func y(ofRow index: Int) -> Double? {
        guard index >= 0, index < records.count else { return nil }
        if rowWindow.range.contains(index), let view = byPath[records.paths[index]] {
            var x: Int32 = 0
            var y: Int32 = 0
            guard gtk_widget_translate_coordinates(view.row, widget, 0, 0, &x, &y) != 0 else { return nil }
            return Double(y)
        }
        if index < rowWindow.range.lowerBound { return Double(Int32(index) * spaceRowHeight) }
        return nil
    }
}
