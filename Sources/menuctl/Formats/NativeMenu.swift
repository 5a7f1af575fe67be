import MenuCore
import MenuProtocol

/// The menu as a window manager's or a launcher's own menu shows it (openbox's pipe
/// menu, jgmenu's CSV): every node, open or not, with a submenu for each group,
/// choice and range. What choosing an entry runs is decided here, once, from the
/// row's type and path, and the formats only spell it: a title or a value is only
/// ever a label.
///
/// - a group is a submenu of its children; a choice a submenu of its options
///   (● picked, ○ not), labelled with its value;
/// - an item, a toggle and an option run `menuctl activate PATH` (an item runs its
///   command, a toggle flips, an option is picked); an item with `confirm:` is a
///   group, so its question is a submenu of Yes and No;
/// - a range is a submenu of its steps, each `menuctl set PATH VALUE`, or, with more
///   than ``maxRangeSteps`` or none, of −, its value and +, which run
///   `menuctl step PATH -N` and `+N`;
/// - text and date nodes show their value and run nothing: set them from a
///   launcher or with `menuctl set`.
///
/// Labels and icons are one line, without control characters
/// (``InertText/oneLine(_:)``) or Unicode noncharacters (U+FFFE, U+FFFF and their
/// kind, which XML forbids and UTF-8 checks may refuse), so that one title can
/// neither add a line nor make a whole menu unreadable; what each program reads as
/// markup is the format's to escape.
struct NativeMenu {
    /// The most steps a range is shown with one entry each, as in the tray.
    static let maxRangeSteps = 24

    struct Submenu {
        /// The node's path: a name for the submenu that no text can make.
        var path: String
        var label: String
        var icon: String
        var entries: [Entry]
    }

    enum Entry {
        case submenu(Submenu)
        /// Runs `menuctl ARGUMENTS`: fixed words, a node's path and, for a range's
        /// step, a number menuctl wrote.
        case command(label: String, icon: String, arguments: [String])
        /// Shown, and runs nothing.
        case text(label: String, icon: String)
    }

    /// The menu's entries: every top-level menu, or, for a scope, the scope's own
    /// entries when it opens into a submenu, else the scope alone.
    let entries: [Entry]

    /// `view.rows` must be every node of the scope in tree order, as `tree` answers.
    init(_ view: MenuView) {
        let rows = view.rows
        var k = 0
        var entries: [Entry] = []
        while k < rows.count { entries.append(Self.entry(rows, at: &k)) }
        if view.scope != nil, entries.count == 1, case .submenu(let scope) = entries[0] {
            entries = scope.entries
        }
        self.entries = entries
    }

    /// The entry of the row at `k` with its descendants', leaving `k` past them.
    private static func entry(_ rows: [RowRecord], at k: inout Int) -> Entry {
        let row = rows[k]
        k += 1
        var children: [Entry] = []
        while k < rows.count && rows[k].depth > row.depth { children.append(entry(rows, at: &k)) }
        var label = text(
            row.type == NodeKind.option.rawValue ? RowTree.label(row) : RowTree.titleWithValue(row))
        if row.stale { label += " (stale)" }
        let icon = text(row.icon)
        switch NodeKind(rawValue: row.type) {
        case .group, .choice:
            guard !children.isEmpty else { return .text(label: label, icon: icon) }
            return .submenu(Submenu(path: row.path, label: label, icon: icon, entries: children))
        case .range:
            guard let bounds = row.bounds else { return .text(label: label, icon: icon) }
            return .submenu(
                Submenu(path: row.path, label: label, icon: icon, entries: steps(row, bounds)))
        case .item, .toggle, .option:
            return .command(label: label, icon: icon, arguments: ["activate", row.path])
        case .text, .date, nil:
            return .text(label: label, icon: icon)
        }
    }

    /// A range's entries: each step, or −, the value and +.
    private static func steps(_ row: RowRecord, _ bounds: RangeBounds) -> [Entry] {
        let value = Double(row.value)
        // Counted as a Double: a range may have more steps than an Int holds, or span
        // more than a Double (max − min is then infinite).
        let count =
            bounds.step > 0 ? ((bounds.max - bounds.min) / bounds.step + 1e-9).rounded(.down) + 1 : .infinity
        if count <= Double(maxRangeSteps) {
            return (0..<Int(count)).map { k in
                let step = decimal(bounds.min + Double(k) * bounds.step)
                let on = value.map { abs($0 - step) < bounds.step / 2 } ?? false
                let text = Value.format(step)
                return .command(
                    label: (on ? "● " : "○ ") + text, icon: "", arguments: ["set", row.path, text])
            }
        }
        // Each bound divided first, so that a range wider than a Double still moves.
        let nudge = Value.format(bounds.step > 0 ? bounds.step : bounds.max / 10 - bounds.min / 10)
        return [
            .command(label: "−", icon: "", arguments: ["step", row.path, "-" + nudge]),
            .text(label: text(row.value), icon: ""),
            .command(label: "+", icon: "", arguments: ["step", row.path, "+" + nudge]),
        ]
    }

    /// `s` on one line, with a noncharacter as U+FFFD, the replacement character.
    private static func text(_ s: String) -> String {
        let line = InertText.oneLine(s)
        guard line.unicodeScalars.contains(where: isNoncharacter) else { return line }
        return String(
            String.UnicodeScalarView(line.unicodeScalars.map { isNoncharacter($0) ? "\u{FFFD}" : $0 }))
    }

    private static func isNoncharacter(_ scalar: Unicode.Scalar) -> Bool {
        (0xFDD0...0xFDEF).contains(scalar.value) || scalar.value & 0xFFFE == 0xFFFE
    }

    /// `v` rounded to nine decimals, so that decimal steps read as written (0.3, not
    /// 0.30000000000000004); a number too large for that has no decimals to round.
    private static func decimal(_ v: Double) -> Double {
        let rounded = (v * 1e9).rounded() / 1e9
        return rounded.isFinite ? rounded : v
    }
}
