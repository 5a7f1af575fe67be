/// The dbusmenu ids of one tray menu's entries. An entry keeps its id for the
/// daemon's run, so a host that holds an id across a layout update still names the
/// same entry; an id is never given to another entry, so a stale one is an error and
/// never a different node. The menu's own node is 0, dbusmenu's root.
struct TrayEntryIDs {
    private var ids: [TrayEntryKey: Int32]
    private var keys: [Int32: TrayEntryKey]
    private var next: Int32 = 1

    init(root: TrayEntryKey) {
        ids = [root: 0]
        keys = [0: root]
    }

    /// The entry's id, given one the first time it is asked for.
    mutating func id(for key: TrayEntryKey) -> Int32 {
        if let id = ids[key] { return id }
        let id = next
        // Two billion entries would fill memory with these tables long before.
        next += 1
        ids[key] = id
        keys[id] = key
        return id
    }

    func key(for id: Int32) -> TrayEntryKey? { keys[id] }
}
