import CGtk
import MenuPopup
import MenuProtocol

/// A text row's entry. Enter sends its text as the value; Escape, or a move to
/// another row, puts the daemon's value back; a refused value stays in the entry
/// with the daemon's error under it, to be corrected.
final class TextEditor: ValueEditor {
    let control: UnsafeMutablePointer<GtkWidget>
    let detail: UnsafeMutablePointer<GtkWidget>
    private let error = InlineError()
    private let session: PopupSession
    private var record: RowRecord
    /// Called when an edit starts (so that the daemon's focus follows a click on the
    /// entry) and when it ends (so that the row takes the keys again).
    private let began: () -> Void
    private let ended: () -> Void

    init(
        _ record: RowRecord, session: PopupSession, began: @escaping () -> Void,
        ended: @escaping () -> Void
    ) {
        self.record = record
        self.session = session
        self.began = began
        self.ended = ended
        control = gtk_entry_new()
        gtk_entry_set_width_chars(gtk(control), 14)
        gtk_widget_set_valign(control, GTK_ALIGN_CENTER)
        gtk_style_context_add_class(gtk_widget_get_style_context(control), "value")
        detail = error.label
        GSignal.plain(control, "activate") { [weak self] in self?.commit() }
        GSignal.event(control, "focus-in-event") { [weak self] _ in
            self?.began()
            return false
        }
    }

    var isEditing: Bool { gtk_widget_has_focus(control) != 0 }

    func show(_ record: RowRecord) {
        self.record = record
        if !isEditing { revert() }
    }

    func begin() { gtk_widget_grab_focus(control) }

    func key(_ keyval: guint) -> EditorKey {
        switch Int32(keyval) {
        case GDK_KEY_Escape:
            end()
            return .taken
        case GDK_KEY_Up, GDK_KEY_KP_Up, GDK_KEY_Down, GDK_KEY_KP_Down, GDK_KEY_Page_Up, GDK_KEY_KP_Page_Up,
            GDK_KEY_Page_Down, GDK_KEY_KP_Page_Down, GDK_KEY_Tab:
            end()
            return .toRow
        default:
            return .toWidget
        }
    }

    private func commit() {
        let text = String(cString: gtk_entry_get_text(gtk(control)))
        send(text, for: record.path, session: session, error: error) { [weak self] in self?.end() }
    }

    /// Back to the daemon's value, and the keys back to the row.
    private func end() {
        error.clear()
        ended()
        revert()
    }

    private func revert() {
        gtk_entry_set_text(gtk(control), record.value)
    }
}
