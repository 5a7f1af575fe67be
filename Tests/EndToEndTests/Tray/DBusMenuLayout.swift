import Foundation

/// One entry of a `com.canonical.dbusmenu` layout, read from `busctl --json=short`'s
/// `(ia{sv}av)`.
struct DBusMenuLayout {
    var id: Int
    var properties: [String: Any]
    var children: [DBusMenuLayout]

    var label: String? { properties["label"] as? String }
    /// The label as a host shows it: `__` is a `_`, and a lone `_`, the mark of the
    /// mnemonic (the node's access key), is not shown.
    var text: String? {
        guard let label else { return nil }
        var out = ""
        var marked = false
        for c in label {
            if c == "_" && !marked {
                marked = true
                continue
            }
            out.append(c)
            marked = false
        }
        return out
    }
    var toggleType: String? { properties["toggle-type"] as? String }
    var toggleState: Int? { properties["toggle-state"] as? Int }
    var isSubmenu: Bool { properties["children-display"] as? String == "submenu" }
    var enabled: Bool { properties["enabled"] as? Bool ?? true }

    /// `data`: the structure's three members.
    init?(_ data: Any?) {
        guard let members = data as? [Any], members.count == 3, let id = members[0] as? Int,
            let properties = members[1] as? [String: Any], let children = members[2] as? [Any]
        else { return nil }
        self.id = id
        self.properties = properties.mapValues { ($0 as? [String: Any])?["data"] ?? $0 }
        self.children = children.compactMap { DBusMenuLayout(($0 as? [String: Any])?["data"]) }
    }

    /// This entry and every one below it, in pre-order, with their depth below this one.
    func flattened(depth: Int = 0) -> [(depth: Int, entry: DBusMenuLayout)] {
        [(depth, self)] + children.flatMap { $0.flattened(depth: depth + 1) }
    }

    /// The first entry, here or below, whose label shows `text` (``text``).
    func entry(labelled text: String) -> DBusMenuLayout? {
        flattened().first { $0.entry.text == text }?.entry
    }
}

extension SessionBus {
    /// The whole layout of the dbusmenu of item `name`, with its revision.
    func layout(of name: String, parent: Int = 0) throws -> (revision: Int, root: DBusMenuLayout) {
        let reply = try call(
            name, "/MenuBar", "com.canonical.dbusmenu", "GetLayout", "iias", ["\(parent)", "-1", "0"])
        guard reply.count == 2, let revision = reply[0] as? Int, let root = DBusMenuLayout(reply[1]) else {
            throw BusCallFailed(message: "GetLayout answered \(reply)")
        }
        return (revision, root)
    }

    /// Sends a dbusmenu `Event` with empty data.
    func menuEvent(_ name: String, id: Int, _ event: String) throws {
        _ = try call(
            name, "/MenuBar", "com.canonical.dbusmenu", "Event", "isvu", ["\(id)", event, "s", "", "0"])
    }
}
