import CGtk
import MenuProtocol

/// One answer of the popup's search: where the node is (its breadcrumbs, or its path
/// when the query matched the path) with the matched letters marked, and its value
/// when its title does not show it, as `menuctl pick --search` offers it.
final class FoundRowView {
    /// Nil for a row that is no answer.
    let found: FoundRecord?
    let row: UnsafeMutablePointer<GtkWidget>

    init(_ found: FoundRecord) {
        self.found = found
        row = gtk_list_box_row_new()
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        gtk_widget_set_margin_start(box, 8)
        let place = gtk_label_new(nil)!
        gtk_label_set_xalign(gtk(place), 0)
        gtk_label_set_ellipsize(gtk(place), PANGO_ELLIPSIZE_START)
        gtk_label_set_single_line_mode(gtk(place), 1)
        gtk_label_set_max_width_chars(gtk(place), 60)
        gtk_widget_set_hexpand(place, 1)
        let (text, offsets) = Self.place(found)
        MarkedLetters.show(text, on: place, marking: offsets, as: .match)
        gtk_container_add(gtk(box), place)
        if !found.value.isEmpty, !found.title.contains(found.value) {
            let value = gtk_label_new(InertText.oneLine(found.value))!
            gtk_label_set_ellipsize(gtk(value), PANGO_ELLIPSIZE_END)
            gtk_label_set_max_width_chars(gtk(value), 24)
            gtk_style_context_add_class(gtk_widget_get_style_context(value), "value")
            gtk_container_add(gtk(box), value)
        }
        gtk_container_add(gtk(row), box)
        let context = gtk_widget_get_style_context(row)
        gtk_style_context_add_class(context, "row")
        gtk_style_context_add_class(context, "found")
        gtk_widget_show_all(row)
    }

    /// A row that is no answer: why there is none ("nothing matches …", a refused
    /// query).
    init(message: String) {
        found = nil
        row = gtk_list_box_row_new()
        let label = gtk_label_new(InertText.oneLine(message))!
        gtk_label_set_xalign(gtk(label), 0)
        gtk_label_set_ellipsize(gtk(label), PANGO_ELLIPSIZE_END)
        gtk_widget_set_margin_start(label, 8)
        gtk_container_add(gtk(row), label)
        gtk_widget_set_sensitive(row, 0)
        gtk_style_context_add_class(gtk_widget_get_style_context(row), "row")
        gtk_widget_show_all(row)
    }

    /// The text shown and the matched letters in it: the breadcrumbs (which end in
    /// the node's own title) unless the query matched the path.
    static func place(_ found: FoundRecord) -> (String, [Int]) {
        switch found.field {
        case "path":
            return (InertText.oneLine(found.path), found.positions)
        case "title":
            let shift = found.breadcrumbs.unicodeScalars.count - found.title.unicodeScalars.count
            return (InertText.oneLine(found.breadcrumbs), found.positions.map { $0 + max(0, shift) })
        default:
            return (InertText.oneLine(found.breadcrumbs), found.positions)
        }
    }
}
