import CGtk
import MenuProtocol

/// The popup's search: a printable character typed at the accordion starts it, in
/// an entry above the rows. Each change of the query asks the daemon's `find` (the
/// rule every front end searches by), and its answers replace the rows until the
/// search ends: Escape, or the query emptied, goes back to the accordion; Enter or a
/// click chooses an answer, which the window then opens and acts on as
/// `menuctl pick --search` does.
final class PopupSearch {
    /// Most answers shown.
    static let limit = 50

    let entry: UnsafeMutablePointer<GtkWidget>
    /// The answers' list, shown in place of the rows while the search is on.
    let list: UnsafeMutablePointer<GtkWidget>
    private let menu: String?
    private let send: ([String], @escaping (ProtocolReply) -> Void) -> Void
    private var views: [FoundRowView] = []
    /// The number of the last query asked: an answer to an older one is dropped.
    private var asked = 0
    /// The number of the last query answered.
    private var answeredQuery = 0
    /// Enter came before the last query's answers: the best is chosen when they come,
    /// so that a query typed fast and Enter act as they would typed slowly.
    private var chooseWhenAnswered = false
    /// True while the entry's text is set from here, not typed.
    private var setting = false
    private(set) var isActive = false

    /// The search ended without a choice.
    var onEnd: () -> Void = {}
    /// An answer was chosen; the search has ended.
    var onChoose: (FoundRecord) -> Void = { _ in }

    init(menu: String?, send: @escaping ([String], @escaping (ProtocolReply) -> Void) -> Void) {
        self.menu = menu
        self.send = send
        entry = gtk_search_entry_new()
        gtk_widget_set_no_show_all(entry, 1)
        list = gtk_list_box_new()
        gtk_widget_set_no_show_all(list, 1)
        gtk_list_box_set_selection_mode(gtk(list), GTK_SELECTION_SINGLE)
        gtk_list_box_set_activate_on_single_click(gtk(list), 1)
        GSignal.plain(entry, "changed") { [weak self] in self?.changed() }
        GSignal.withArgument(list, "row-activated") { [weak self] row in
            guard let self, let view = self.views.first(where: { UnsafeMutableRawPointer($0.row) == row })
            else { return }
            self.choose(view)
        }
    }

    /// Starts the search with `text`, what was typed at the accordion.
    func begin(with text: String) {
        isActive = true
        gtk_widget_show(entry)
        gtk_widget_show(list)
        gtk_widget_grab_focus(entry)
        gtk_entry_set_text(gtk(entry), text)
        gtk_editable_set_position(OpaquePointer(entry), -1)
    }

    /// Ends the search: the entry emptied and hidden, the answers gone.
    func end() {
        guard isActive else { return }
        isActive = false
        asked += 1
        answeredQuery = asked
        chooseWhenAnswered = false
        setting = true
        gtk_entry_set_text(gtk(entry), "")
        setting = false
        gtk_widget_hide(entry)
        gtk_widget_hide(list)
        replace(with: [])
    }

    /// Moves the selected answer by `by` rows, within the answers.
    func move(_ by: Int) {
        guard !views.isEmpty else { return }
        let selected = gtk_list_box_get_selected_row(gtk(list)).map { Int(gtk_list_box_row_get_index($0)) }
        let next = min(max((selected ?? -1) + by, 0), views.count - 1)
        select(next)
    }

    /// Chooses the selected answer (Enter).
    func chooseSelected() {
        if answeredQuery != asked {
            chooseWhenAnswered = true
            return
        }
        guard let selected = gtk_list_box_get_selected_row(gtk(list)) else { return }
        let index = Int(gtk_list_box_row_get_index(selected))
        guard views.indices.contains(index) else { return }
        choose(views[index])
    }

    private func choose(_ view: FoundRowView) {
        guard let found = view.found else { return }
        end()
        onChoose(found)
    }

    private func changed() {
        guard !setting, isActive else { return }
        let query = String(cString: gtk_entry_get_text(gtk(entry)))
        let words = query.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
        guard !words.isEmpty else {
            end()
            onEnd()
            return
        }
        asked += 1
        let number = asked
        // Within one menu, enough are asked for that it keeps its share.
        let limit = menu == nil ? Self.limit : 10_000
        send(["find", words, String(limit)]) { [weak self] reply in
            guard let self, self.isActive, number == self.asked else { return }
            self.answeredQuery = number
            self.answered(reply, query: query)
            if self.chooseWhenAnswered {
                self.chooseWhenAnswered = false
                self.chooseSelected()
            }
        }
    }

    private func answered(_ reply: ProtocolReply, query: String) {
        guard reply.isOK else {
            replace(with: [FoundRowView(message: reply.errorMessage ?? reply.terminator)])
            return
        }
        let found = reply.lines.lazy.compactMap { FoundRecord(fields: ProtocolFields.fields(of: $0)) }
            .filter { [menu] found in
                guard let menu else { return true }
                return found.path == menu || found.path.hasPrefix(menu + "/")
            }
            .prefix(Self.limit)
        guard !found.isEmpty else {
            replace(with: [FoundRowView(message: "nothing matches '\(query)'")])
            return
        }
        replace(with: found.map(FoundRowView.init))
        select(0)
    }

    private func replace(with views: [FoundRowView]) {
        for view in self.views { gtk_widget_destroy(view.row) }
        self.views = views
        for (k, view) in views.enumerated() { gtk_list_box_insert(gtk(list), view.row, Int32(k)) }
    }

    private func select(_ index: Int) {
        let row = views[index].row
        gtk_list_box_select_row(gtk(list), gtk(row))
        // The entry keeps the keyboard; the list scrolls to the selected answer.
        if let adjustment = gtk_list_box_get_adjustment(gtk(list)) {
            var allocation = GtkAllocation()
            gtk_widget_get_allocation(row, &allocation)
            gtk_adjustment_clamp_page(
                adjustment, Double(allocation.y), Double(allocation.y + allocation.height))
        }
    }
}
