import CGtk
import MenuPopup
import MenuProtocol

/// The control of a value row the user edits before it is sent: a text row's entry,
/// a date row's calendar. It shows the daemon's value until the user edits, sends
/// the edited value as one `set`, and shows a refusal inline; it never keeps a value
/// of its own past the edit.
protocol ValueEditor: AnyObject {
    /// What goes on the row's line, after the title.
    var control: UnsafeMutablePointer<GtkWidget> { get }
    /// What goes under the row's line: the calendar, the error.
    var detail: UnsafeMutablePointer<GtkWidget> { get }
    /// Whether an edit is under way, so that keys go to it.
    var isEditing: Bool { get }
    /// Shows the daemon's record; an edit under way keeps what the user typed.
    func show(_ record: RowRecord)
    /// Starts an edit (Enter, or a click on the row); a second start on a calendar
    /// ends it.
    func begin()
    /// A key pressed while the edit is under way.
    func key(_ keyval: guint) -> EditorKey
}

/// What a key pressed during an edit comes to.
enum EditorKey {
    /// The editor took it.
    case taken
    /// GTK gives it to the focused widget (the entry, which edits its text).
    case toWidget
    /// The edit ended (reverted), and the key does what it does on the row.
    case toRow
}

extension ValueEditor {
    /// Sends `value` for `path` as `set`; a refusal goes to `error`, and an
    /// acceptance ends the edit through `accepted`.
    func send(
        _ value: String, for path: String, session: PopupSession, error: InlineError,
        accepted: @escaping () -> Void
    ) {
        // A connection that failed ends the popup once it is read, as for any request.
        try? session.send(["set", path, value]) { reply in
            if let message = reply.errorMessage {
                error.show(message)
            } else {
                error.clear()
                accepted()
            }
        }
    }
}
