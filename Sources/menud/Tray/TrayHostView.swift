/// What one tray host was told of its menu: each entry's properties as last sent,
/// and the entries of each submenu whose layout it fetched. A change is told against
/// this, entry by entry, in time that grows with the change and not with the menu:
/// an entry the host never fetched is not told at all (it gets it as it is when it
/// asks), and a submenu whose entries differ from those it fetched is fetched anew.
struct TrayHostView {
    /// Entries as last sent, without their entries.
    private var sent: [TrayEntryKey: TrayEntry] = [:]
    /// The keys of each submenu's entries, as last sent.
    private var submenus: [TrayEntryKey: [TrayEntryKey]] = [:]

    /// Whether the host has fetched any layout since it was last told to fetch the
    /// whole menu.
    var hasLayout: Bool { !sent.isEmpty }

    /// The host fetched `entry`'s layout `depth` levels down (all of it for a
    /// negative depth). The whole menu fetched replaces all that was known, so that
    /// entries of nodes gone since are forgotten.
    mutating func fetched(_ entry: TrayEntry, depth: Int32, isWholeMenu: Bool) {
        if isWholeMenu && depth < 0 { forgetAll() }
        record(entry, depth: depth)
    }

    private mutating func record(_ entry: TrayEntry, depth: Int32) {
        var bare = entry
        bare.children = []
        sent[entry.key] = bare
        guard depth != 0 else { return }
        submenus[entry.key] = entry.children.map(\.key)
        let below = depth < 0 ? -1 : depth - 1
        for child in entry.children { record(child, depth: below) }
    }

    /// The host is to fetch everything again (a reload may have changed anything).
    mutating func forgetAll() {
        sent = [:]
        submenus = [:]
    }

    /// `key`'s entries were replaced (a `children-cmd` group's children): whether the
    /// host had fetched them, and so should be told to fetch them again. Until it
    /// does, they are not compared.
    mutating func replacedEntries(of key: TrayEntryKey) -> Bool {
        submenus.removeValue(forKey: key) != nil
    }

    /// Compares entries as they are now with what was sent, and records them as
    /// told: the entries whose properties changed, and the submenus whose list of
    /// entries did. `complete`: whether `entry.children` are all its entries (a
    /// range's steps), rather than none of them (a group built without its nodes).
    mutating func compare(
        _ entry: TrayEntry, complete: Bool, changed: inout [TrayEntry],
        submenus changedSubmenus: inout [TrayEntryKey]
    ) {
        if let old = sent[entry.key] {
            if !old.showsTheSame(as: entry) { changed.append(entry) }
            var bare = entry
            bare.children = []
            sent[entry.key] = bare
        }
        guard complete, let keys = submenus[entry.key] else { return }
        guard keys == entry.children.map(\.key) else {
            changedSubmenus.append(entry.key)
            // Fetched anew when the host asks, and recorded then.
            submenus[entry.key] = nil
            return
        }
        for child in entry.children {
            compare(child, complete: true, changed: &changed, submenus: &changedSubmenus)
        }
    }
}
