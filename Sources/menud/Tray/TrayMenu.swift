import MenuCore

/// A menu's nodes as dbusmenu entries (every node, whether open or not: a tray shows
/// a submenu when the user points at it, and tells the daemon through `AboutToShow`).
///
/// - a group is a submenu; a choice a submenu of radio entries, its options;
/// - a toggle is a checkmark;
/// - a range is a submenu of radio entries over its steps, or of −, its value and +
///   when it has more than ``maxRangeSteps`` or no step (the buttons then move a
///   tenth of the range);
/// - text and date nodes, and ranges, show their value, added after the title when
///   the title does not show it already;
/// - a `confirm:` item is a submenu of its question, a label that cannot be clicked,
///   above its Yes and No: GTK hosts draw a submenu before a relabelled parent, so
///   the question has to be in the submenu to be seen.
enum TrayMenu {
    /// The most steps a range is shown with one entry each.
    static let maxRangeSteps = 24

    /// Node `n`'s entry, with its own entries (a range's, a question) and its nodes'
    /// entries `depth` levels down (all of them for a negative depth): in time that
    /// grows with what is asked for, not with the menu.
    static func entry(of n: Int, in model: MenuModel, depth: Int32 = -1) -> TrayEntry {
        let row = model.row(of: n)
        var entry = Self.entry(for: row)
        if row.kind == .group, let question = model.question(of: n) {
            var asked = TrayEntry(key: .question(path: row.path), label: question)
            asked.enabled = false
            entry.children.append(asked)
        }
        guard depth != 0 else { return entry }
        // Every negative depth stays -1, so that none can wrap.
        let below = depth < 0 ? -1 : depth - 1
        for child in model.tree.children(n) {
            entry.children.append(Self.entry(of: child, in: model, depth: below))
        }
        return entry
    }

    /// The entry of one row, with the entries a range is shown with, but not the
    /// entries of a group's nodes.
    static func entry(for row: Row) -> TrayEntry {
        var entry = TrayEntry(key: .node(path: row.path), label: row.title, icon: row.icon)
        entry.mnemonic = row.key
        switch row.kind {
        case .group, .choice:
            entry.isSubmenu = true
        case .option:
            entry.toggle = .radio(on: row.selected ?? false)
        case .toggle:
            entry.toggle = .checkmark(on: row.value == "on")
        case .range:
            entry.label = showingValue(row)
            entry.isSubmenu = true
            if let bounds = row.bounds, let value = row.value.flatMap(Double.init) {
                entry.children = rangeEntries(row.path, bounds: bounds, value: value)
            }
        case .text, .date:
            entry.label = showingValue(row)
        case .item:
            break
        }
        // A value not known to be the system's says so where the tray shows it.
        if row.stale { entry.label += " (stale)" }
        return entry
    }

    private static func showingValue(_ row: Row) -> String {
        guard let value = row.value, !value.isEmpty, !row.title.contains(value) else { return row.title }
        return "\(row.title): \(value)"
    }

    private static func rangeEntries(_ path: String, bounds: RangeBounds, value: Double) -> [TrayEntry] {
        // Counted as a Double: a range from the config may have more steps than an
        // Int holds, or span more than a Double (max − min is then infinite).
        let stepCount =
            bounds.step > 0 ? ((bounds.max - bounds.min) / bounds.step + 1e-9).rounded(.down) + 1 : .infinity
        if stepCount <= Double(maxRangeSteps) {
            return (0..<Int(stepCount)).map { k in
                let v = stepValue(bounds, k)
                let text = Value.format(v)
                var e = TrayEntry(key: .rangeStep(path: path, value: text), label: text)
                e.toggle = .radio(on: abs(v - value) < bounds.step / 2)
                return e
            }
        }
        var shown = TrayEntry(key: .rangeValue(path: path), label: Value.format(value))
        shown.enabled = false
        return [
            TrayEntry(key: .rangeDown(path: path), label: "−"), shown,
            TrayEntry(key: .rangeUp(path: path), label: "+"),
        ]
    }

    /// How far − and + move a range: its step, or a tenth of it when any number goes.
    static func nudge(_ bounds: RangeBounds) -> Double {
        // Each bound divided first, so that a range wider than a Double still moves.
        bounds.step > 0 ? bounds.step : bounds.max / 10 - bounds.min / 10
    }

    /// Step `k` of a range.
    static func stepValue(_ bounds: RangeBounds, _ k: Int) -> Double {
        decimal(bounds.min + Double(k) * bounds.step)
    }

    /// `v` rounded to nine decimals, so that decimal steps read as written (0.3, not
    /// 0.30000000000000004); a number too large for that has no decimals to round.
    static func decimal(_ v: Double) -> Double {
        let rounded = (v * 1e9).rounded() / 1e9
        return rounded.isFinite ? rounded : v
    }
}
