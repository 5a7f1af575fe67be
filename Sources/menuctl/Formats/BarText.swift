import MenuCore
import MenuProtocol

/// What the bar formats share: the visible rows side by side on one line, the way an
/// accordion looks when laid flat, and the state of the focused row.
enum BarText {
    static let separator = "  "

    /// What a bar shows while `watch` waits for the daemon.
    static let notRunning = "menud: not running"

    static func waiting(_ socket: String) -> String { "menud is not running; waiting for it at \(socket)" }

    /// Each row's label, joined; `mark` decorates every label and knows which is focused.
    static func inline(_ view: MenuView, mark: (RowRecord, String, Bool) -> String) -> String {
        view.rows.map { mark($0, RowTree.label($0), $0.path == view.focus) }.joined(separator: separator)
    }

    /// The row a bar describes: the focused one, else the scope's first row.
    static func subject(_ view: MenuView) -> RowRecord? { view.focusedRow ?? view.rows.first }

    /// The subject's percentage when it is a range.
    static func percentage(_ view: MenuView) -> Int? {
        guard let row = subject(view), let bounds = row.bounds, let value = Double(row.value) else {
            return nil
        }
        return bounds.percentage(of: value)
    }

    /// CSS-style classes for the subject: its type, then its state (`expanded`,
    /// `collapsed`, `selected`, `unselected`) or a toggle's `on`/`off`.
    static func classes(_ view: MenuView) -> [String] {
        guard let row = subject(view) else { return ["empty"] }
        var classes = [row.type]
        if row.state != "-" { classes.append(row.state) }
        if row.type == NodeKind.toggle.rawValue { classes.append(row.value) }
        if row.stale { classes.append("stale") }
        return classes
    }
}
