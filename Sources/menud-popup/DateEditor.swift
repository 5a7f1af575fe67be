import CGtk
import MenuCore
import MenuPopup
import MenuProtocol

/// A date row's calendar, opened under the row by Enter or a click. The arrows move
/// the chosen day (Left and Right a day, Up and Down a week), Page Up and Page Down
/// a month; Enter, Space or a double click sends it as the value, and Escape closes
/// the calendar with the daemon's value kept. A refused date leaves the calendar
/// open with the daemon's error under it.
final class DateEditor: ValueEditor {
    let control: UnsafeMutablePointer<GtkWidget>
    let detail: UnsafeMutablePointer<GtkWidget>
    private let revealer: UnsafeMutablePointer<GtkWidget>
    private let calendar: UnsafeMutablePointer<GtkWidget>
    private let error = InlineError()
    private let session: PopupSession
    private var record: RowRecord

    init(_ record: RowRecord, session: PopupSession) {
        self.record = record
        self.session = session
        control = gtk_label_new(nil)
        gtk_style_context_add_class(gtk_widget_get_style_context(control), "value")
        calendar = gtk_calendar_new()
        revealer = gtk_revealer_new()
        gtk_revealer_set_transition_type(gtk(revealer), GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN)
        gtk_revealer_set_transition_duration(gtk(revealer), 120)
        gtk_container_add(gtk(revealer), calendar)
        detail = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)
        gtk_container_add(gtk(detail), revealer)
        gtk_container_add(gtk(detail), error.label)
        GSignal.plain(calendar, "day-selected-double-click") { [weak self] in self?.commit() }
    }

    var isEditing: Bool { gtk_revealer_get_reveal_child(gtk(revealer)) != 0 }

    func show(_ record: RowRecord) {
        self.record = record
        gtk_label_set_text(gtk(control), InertText.oneLine(record.value))
    }

    func begin() {
        if isEditing {
            end()
            return
        }
        if let day = CalendarDate(record.value) {
            gtk_calendar_select_month(gtk(calendar), guint(day.month - 1), guint(day.year))
            gtk_calendar_select_day(gtk(calendar), guint(day.day))
        }
        gtk_revealer_set_reveal_child(gtk(revealer), 1)
    }

    func key(_ keyval: guint) -> EditorKey {
        switch Int32(keyval) {
        case GDK_KEY_Escape: end()
        case GDK_KEY_Left, GDK_KEY_KP_Left: move(days: -1)
        case GDK_KEY_Right, GDK_KEY_KP_Right: move(days: 1)
        case GDK_KEY_Up, GDK_KEY_KP_Up: move(days: -7)
        case GDK_KEY_Down, GDK_KEY_KP_Down: move(days: 7)
        case GDK_KEY_Page_Up, GDK_KEY_KP_Page_Up: move(months: -1)
        case GDK_KEY_Page_Down, GDK_KEY_KP_Page_Down: move(months: 1)
        case GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_space: commit()
        // Nothing else starts a search or moves the row while the calendar is open.
        default: break
        }
        return .taken
    }

    /// The calendar's day, moved by `days` or `months` (a month from the 31st ends
    /// on the last day of the shorter month, as GLib's dates do).
    private func move(days: Int32 = 0, months: Int32 = 0) {
        var year: guint = 0
        var month: guint = 0
        var day: guint = 0
        gtk_calendar_get_date(gtk(calendar), &year, &month, &day)
        guard let date = g_date_new_dmy(GDateDay(day), GDateMonth(month + 1), GDateYear(year)) else {
            return
        }
        defer { g_date_free(date) }
        if days > 0 { g_date_add_days(date, guint(days)) }
        if days < 0 { g_date_subtract_days(date, guint(-days)) }
        if months > 0 { g_date_add_months(date, guint(months)) }
        if months < 0 { g_date_subtract_months(date, guint(-months)) }
        // The day first, then the month: no moment shows a day the month lacks.
        gtk_calendar_select_day(gtk(calendar), 1)
        gtk_calendar_select_month(
            gtk(calendar), guint(g_date_get_month(date).rawValue - 1), guint(g_date_get_year(date)))
        gtk_calendar_select_day(gtk(calendar), guint(g_date_get_day(date)))
    }

    private func commit() {
        var year: guint = 0
        var month: guint = 0
        var day: guint = 0
        gtk_calendar_get_date(gtk(calendar), &year, &month, &day)
        guard let date = CalendarDate(year: Int(year), month: Int(month) + 1, day: Int(day)) else { return }
        send(date.description, for: record.path, session: session, error: error) { [weak self] in self?.end()
        }
    }

    private func end() {
        error.clear()
        gtk_revealer_set_reveal_child(gtk(revealer), 0)
    }
}
