import CGtk
import MenuProtocol

/// The daemon's refusal of a value, shown under the row that sent it (class
/// `error`), in plain text on one line, until the value is sent again or reverted.
final class InlineError {
    let label: UnsafeMutablePointer<GtkWidget>

    init() {
        label = gtk_label_new(nil)
        gtk_label_set_xalign(gtk(label), 0)
        gtk_label_set_ellipsize(gtk(label), PANGO_ELLIPSIZE_END)
        gtk_label_set_single_line_mode(gtk(label), 1)
        gtk_label_set_max_width_chars(gtk(label), 40)
        gtk_style_context_add_class(gtk_widget_get_style_context(label), "error")
        // Shown only with a message, whatever shows the row around it.
        gtk_widget_set_no_show_all(label, 1)
    }

    func show(_ message: String) {
        gtk_label_set_text(gtk(label), InertText.oneLine(message))
        gtk_widget_show(label)
    }

    func clear() {
        gtk_label_set_text(gtk(label), "")
        gtk_widget_hide(label)
    }
}
