/// What changed from one layout of a tray menu to the next, as dbusmenu signals it:
/// entries whose properties changed in place (`ItemsPropertiesUpdated`: a value, a
/// checkmark, a label), and submenus whose entries came or went (`LayoutUpdated`
/// naming that submenu). A host then redraws what changed, not the whole menu: a
/// volume that follows the system does not rebuild an open menu on every step.
struct TrayMenuUpdate {
    /// Entries of the new layout whose properties differ, outside the submenus below.
    private(set) var changedEntries: [TrayEntry] = []
    /// Submenus whose list of entries differs.
    private(set) var changedSubmenus: [TrayEntryKey] = []

    init(from old: TrayMenu, to new: TrayMenu) {
        // The menu's own node shows as the item (a top-level toggle, say): a change
        // to it is the whole menu's.
        guard old.root.showsTheSame(as: new.root) else {
            changedSubmenus = [new.root.key]
            return
        }
        compare(old.root, new.root)
    }

    var isEmpty: Bool { changedEntries.isEmpty && changedSubmenus.isEmpty }

    private mutating func compare(_ old: TrayEntry, _ new: TrayEntry) {
        guard old.children.map(\.key) == new.children.map(\.key) else {
            changedSubmenus.append(new.key)
            return
        }
        for (before, after) in zip(old.children, new.children) {
            if !before.showsTheSame(as: after) { changedEntries.append(after) }
            compare(before, after)
        }
    }
}

extension TrayEntry {
    /// Whether the two have the same properties (their entries aside).
    func showsTheSame(as other: TrayEntry) -> Bool {
        label == other.label && icon == other.icon && toggle == other.toggle && enabled == other.enabled
            && isSubmenu == other.isSubmenu
    }
}
