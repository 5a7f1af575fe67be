import CGtk

/// "Loading…" under a group the user opened while the daemon has not answered yet:
/// a `children-cmd` group the first time, whose reply waits for its command. It
/// shows only if the reply is still to come after a moment, so that a group that
/// opens at once never flashes it, and goes when the reply comes, with the group's
/// rows.
final class LoadingRow {
    private let list: UnsafeMutablePointer<GtkWidget>
    private var row: UnsafeMutablePointer<GtkWidget>?
    private var finished = false

    /// How long a reply may take before "Loading…" shows.
    static let delay: UInt32 = 80

    /// Arms it for the group that `where_` places, asked again when it shows: the
    /// group's list position and depth, or nil once it is gone.
    init(list: UnsafeMutablePointer<GtkWidget>, where place: @escaping () -> (index: Int, depth: Int)?) {
        self.list = list
        GTimeout.once(after: Self.delay) { [weak self] in
            guard let self, !self.finished, let (index, depth) = place() else { return }
            self.show(after: index, depth: depth)
        }
    }

    private func show(after index: Int, depth: Int) {
        let row = gtk_list_box_row_new()!
        let label = gtk_label_new("Loading…")!
        gtk_label_set_xalign(gtk(label), 0)
        gtk_widget_set_margin_start(label, Int32(8 + 18 * min(depth + 1, 20) + 14))
        gtk_container_add(gtk(row), label)
        gtk_list_box_row_set_activatable(gtk(row), 0)
        gtk_list_box_row_set_selectable(gtk(row), 0)
        let context = gtk_widget_get_style_context(row)
        gtk_style_context_add_class(context, "row")
        gtk_style_context_add_class(context, "loading")
        gtk_widget_show_all(row)
        gtk_list_box_insert(gtk(list), row, Int32(index + 1))
        self.row = row
    }

    /// The reply came: the row goes, or never shows.
    func finish() {
        finished = true
        if let row { gtk_widget_destroy(row) }
        row = nil
    }
}
