import CGtk
import MenuPopup
import MenuProtocol

/// One row of the popup: a list box row holding its arrow (▸/▾), indentation, icon,
/// title and the control its type calls for: a switch for a toggle, a slider for a
/// range, a mark for a choice's option, the value for the other value rows. It
/// shows what the daemon's `row` record says, and sends what the user does as
/// requests; it changes nothing of its own, so a switch moves when the daemon says
/// the value moved, whoever moved it.
final class RowView {
    private(set) var record: RowRecord
    /// The list box row, which the popup's list holds.
    let row: UnsafeMutablePointer<GtkWidget>
    /// What slides the row in, for a row that comes with an animation: only such a
    /// row has one, since each costs the list windows of its own to lay out.
    private let revealer: UnsafeMutablePointer<GtkWidget>?
    /// The row's line and, under it, what its editor shows there; indented by depth.
    private let box: UnsafeMutablePointer<GtkWidget>
    private let line: UnsafeMutablePointer<GtkWidget>
    private let arrow: UnsafeMutablePointer<GtkWidget>
    private let title: UnsafeMutablePointer<GtkWidget>
    private var icon: UnsafeMutablePointer<GtkWidget>?
    private var control: UnsafeMutablePointer<GtkWidget>?
    /// A text or date row's editor, which holds its control.
    private var editor: ValueEditor?
    /// True while the view sets a control from a record, so that the control's own
    /// signal (a switch's state-set, a slider's value-changed) sends nothing.
    private var updating = false
    private let sender: ValueSender?
    private let session: PopupSession

    /// Whether a row of `record`'s type and range fits this view.
    func fits(_ other: RowRecord) -> Bool {
        other.type == record.type && other.bounds == record.bounds && other.icon == record.icon
    }

    /// A row to be slid in by ``reveal()`` when `slidesIn`, else shown at once.
    init(_ record: RowRecord, session: PopupSession, slidesIn: Bool) {
        self.record = record
        self.session = session
        sender = record.type == "range" ? ValueSender(session: session, path: record.path) : nil
        row = gtk_list_box_row_new()
        if slidesIn {
            let revealer = gtk_revealer_new()!
            gtk_revealer_set_transition_type(gtk(revealer), GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN)
            gtk_revealer_set_transition_duration(gtk(revealer), 120)
            self.revealer = revealer
        } else {
            revealer = nil
        }
        box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)
        line = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)
        arrow = gtk_label_new(nil)
        gtk_label_set_width_chars(gtk(arrow), 1)
        title = gtk_label_new(nil)
        gtk_label_set_xalign(gtk(title), 0)
        gtk_label_set_ellipsize(gtk(title), PANGO_ELLIPSIZE_END)
        gtk_label_set_single_line_mode(gtk(title), 1)
        gtk_label_set_max_width_chars(gtk(title), 60)
        gtk_widget_set_hexpand(title, 1)
        gtk_container_add(gtk(line), arrow)
        if !record.icon.isEmpty {
            let image = gtk_image_new_from_icon_name(record.icon, GTK_ICON_SIZE_MENU)
            // A theme without a small size of the icon would give it at full size.
            gtk_image_set_pixel_size(gtk(image), 16)
            gtk_container_add(gtk(line), image)
            icon = image
        }
        gtk_container_add(gtk(line), title)
        gtk_container_add(gtk(box), line)
        control = makeControl()
        if let control { gtk_container_add(gtk(line), control) }
        if let editor { gtk_container_add(gtk(box), editor.detail) }
        if let revealer {
            gtk_container_add(gtk(revealer), box)
            gtk_container_add(gtk(row), revealer)
        } else {
            gtk_container_add(gtk(row), box)
        }
        let context = gtk_widget_get_style_context(row)
        gtk_style_context_add_class(context, "row")
        gtk_widget_show_all(row)
        show(record)
    }

    /// Reveals a row that came after the first frame, with its short animation.
    func reveal() {
        if let revealer { gtk_revealer_set_reveal_child(gtk(revealer), 1) }
    }

    /// The row's height on screen, or nil while it is not laid out or still
    /// sliding in.
    var shownHeight: Int32? {
        if let revealer, gtk_revealer_get_child_revealed(gtk(revealer)) == 0 { return nil }
        let height = gtk_widget_get_allocated_height(row)
        return height > 1 ? height : nil
    }

    private func makeControl() -> UnsafeMutablePointer<GtkWidget>? {
        switch record.type {
        case "toggle":
            let toggle = gtk_switch_new()!
            gtk_widget_set_valign(toggle, GTK_ALIGN_CENTER)
            GSignal.stateSet(toggle) { [weak self] _ in
                guard let self else { return true }
                if !self.updating { self.send(["toggle", self.record.path]) }
                // The switch shows the daemon's value, which comes with its event.
                return true
            }
            return toggle
        case "range":
            let bounds = record.bounds
            let low = bounds?.min ?? 0
            let high = max(bounds?.max ?? 100, low + 1)
            let step = bounds?.step ?? 0
            let slider = gtk_scale_new_with_range(
                GTK_ORIENTATION_HORIZONTAL, low, high, step > 0 ? step : (high - low) / 100)!
            gtk_scale_set_draw_value(gtk(slider), 1)
            gtk_scale_set_value_pos(gtk(slider), GTK_POS_RIGHT)
            gtk_scale_set_digits(gtk(slider), Self.digits(step))
            // GTK moves a scale by its page on a wheel notch; the popup steps it.
            let increment = step > 0 ? step : (high - low) / 100
            gtk_range_set_increments(gtk(slider), increment, increment)
            gtk_widget_set_size_request(slider, 160, -1)
            GSignal.plain(slider, "value-changed") { [weak self] in
                guard let self, !self.updating, let sender = self.sender else { return }
                // Sent on the range's steps, which is all the daemon takes.
                let value = Self.snapped(gtk_range_get_value(gtk(slider)), low: low, high: high, step: step)
                try? sender.send(Self.text(value, step: step))
            }
            return slider
        case "option":
            let mark = gtk_label_new(nil)!
            gtk_style_context_add_class(gtk_widget_get_style_context(mark), "mark")
            return mark
        case "text":
            let editor = TextEditor(
                record, session: session,
                // A click on the entry reaches no row-activated: the focus follows it here.
                began: { [weak self] in
                    guard let self else { return }
                    self.send(["focus", self.record.path])
                },
                ended: { [weak self] in
                    guard let self else { return }
                    gtk_widget_grab_focus(self.row)
                })
            self.editor = editor
            return editor.control
        case "date":
            let editor = DateEditor(record, session: session)
            self.editor = editor
            return editor.control
        case "choice":
            let value = gtk_label_new(nil)!
            gtk_label_set_ellipsize(gtk(value), PANGO_ELLIPSIZE_END)
            gtk_label_set_max_width_chars(gtk(value), 24)
            gtk_style_context_add_class(gtk_widget_get_style_context(value), "value")
            return value
        default:
            return nil
        }
    }

    /// Shows `record`, the daemon's word on this row.
    func show(_ record: RowRecord) {
        self.record = record
        updating = true
        defer { updating = false }
        let expandable = record.type == "group" || record.type == "choice"
        gtk_label_set_text(gtk(arrow), expandable ? (record.state == "expanded" ? "▾" : "▸") : "")
        gtk_widget_set_margin_start(box, Int32(8 + 18 * min(record.depth, 20)))
        showTitle(record)
        let context = gtk_widget_get_style_context(row)
        classes(context, ["group": record.type == "group", "expanded": record.state == "expanded"])
        classes(context, ["stale": record.stale])
        let tip = record.stale ? (record.staleReason.isEmpty ? "not read yet" : record.staleReason) : nil
        gtk_widget_set_tooltip_text(row, tip.map(InertText.oneLine))
        if let editor {
            editor.show(record)
            return
        }
        guard let control else { return }
        switch record.type {
        case "toggle":
            let on = record.value == "on"
            gtk_switch_set_active(gtk(control), on ? 1 : 0)
            gtk_switch_set_state(gtk(control), on ? 1 : 0)
        case "range":
            // A value the user is still sending is not moved back by an older one.
            if let value = Double(record.value), sender?.isBusy != true {
                gtk_range_set_value(gtk(control), value)
            }
        case "option":
            gtk_label_set_text(gtk(control), record.state == "selected" ? "●" : "○")
        default:
            // A title whose template shows the value already needs no second copy.
            let shown = record.title.contains(record.value) ? "" : record.value
            gtk_label_set_text(gtk(control), InertText.oneLine(shown))
        }
    }

    /// The title as plain text on one line, its access key underlined where the
    /// title holds it: by a Pango attribute, so no markup or mnemonic is read from
    /// the title itself.
    private func showTitle(_ record: RowRecord) {
        let text = InertText.oneLine(record.title)
        let key = record.key.lowercased()
        let at = key.isEmpty ? nil : text.unicodeScalars.firstIndex { String($0).lowercased() == key }
        let offset = at.map { text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: $0) }
        MarkedLetters.show(text, on: title, marking: offset.map { [$0] } ?? [], as: .accessKey)
    }

    /// A click on the row, which has the focus already, as menuctl's `activate` and
    /// `toggle` do it: a group or choice opens or closes, a toggle flips, an option
    /// is picked, an item runs; `done` gets the reply. A text or date row starts an
    /// edit instead, and a range's slider takes the pointer: neither sends anything.
    func activate(_ done: @escaping (ProtocolReply) -> Void) {
        switch record.type {
        case "group", "choice", "toggle": send(["toggle", record.path], done)
        case "text", "date": edit()
        case "range": break
        default: send(["activate", record.path], done)
        }
    }

    /// Whether the row's value is edited in place (a text's entry, a date's calendar).
    var isEditable: Bool { editor != nil }

    var isEditing: Bool { editor?.isEditing ?? false }

    /// Starts an edit of the row's value, or ends a calendar's.
    func edit() { editor?.begin() }

    /// A key pressed while the row's value is edited.
    func editKey(_ keyval: guint) -> EditorKey { editor?.key(keyval) ?? .toRow }

    private func send(_ words: [String], _ done: @escaping (ProtocolReply) -> Void = { _ in }) {
        try? session.send(words, done: done)
    }

    private func classes(_ context: UnsafeMutablePointer<GtkStyleContext>?, _ wanted: [String: Bool]) {
        for (name, on) in wanted {
            if on {
                gtk_style_context_add_class(context, name)
            } else {
                gtk_style_context_remove_class(context, name)
            }
        }
    }

    /// `value` on the nearest step from `low`, within the range.
    static func snapped(_ value: Double, low: Double, high: Double, step: Double) -> Double {
        guard step > 0 else { return min(max(value, low), high) }
        return min(max(low + ((value - low) / step).rounded() * step, low), high)
    }

    /// A range's value as text: as many decimals as its step has.
    static func text(_ value: Double, step: Double) -> String {
        let digits = Int(digits(step))
        if digits == 0 { return String(Int(value.rounded())) }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        return String(rounded)
    }

    private static func digits(_ step: Double) -> Int32 {
        guard step > 0, step < 1 else { return 0 }
        var digits: Int32 = 0
        var s = step
        while s < 1 && digits < 6 {
            s *= 10
            digits += 1
        }
        return digits
    }
}
