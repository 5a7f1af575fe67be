/// Where a group's children come from when the daemon makes them itself
/// (`children-from`), rather than the config or a command.
public enum ChildrenSource: String, Sendable, Hashable, CaseIterable {
    /// The desktop's installed applications, from their desktop entries.
    case applications
    /// power-profiles-daemon's profiles, as a choice of the active one.
    case powerProfiles = "power-profiles"
    /// BlueZ's adapter and paired devices, with a group that scans for others.
    case bluetooth
    /// The devices BlueZ finds while the group is open, for pairing.
    case bluetoothScan = "bluetooth-scan"
    /// NetworkManager's Wi-Fi radio, the networks in reach and the saved VPNs.
    case networks
}

/// Groups whose children come from a command (`children-cmd`) or from the daemon
/// (`children-from`). The daemon fills those groups in specs when it builds a model
/// from a config, and splices new children into the model when they arrive
/// (``MenuModel/replaceChildren(of:with:filling:applications:)``); these are the
/// spec-side helpers for both.
extension MenuConfig {
    /// Every `children-cmd` group, by path, with its command: in the config and in
    /// whatever children are already filled in (a command may print more such groups).
    public var childrenCommands: [String: String] {
        var out: [String: String] = [:]
        for (i, command) in nodes.childrenCommands { out[nodes.path(i)] = command }
        return out
    }

    /// This config with each `children-cmd` group's children set to
    /// `children(path)`, and each `children-from` group's to what `provided` has for
    /// its source ("Loading…" while it has nothing), looking into the returned
    /// children for more such groups. Filling stops at ``MenuTree/maxDepth``, however
    /// deep commands nest.
    public func fillingChildren(
        provided: [ChildrenSource: [NodeSpec]] = [:], _ children: (String) -> [NodeSpec]
    ) -> MenuConfig {
        // Most configs have no such group; they must not pay for a round trip
        // through specs on every load.
        if nodes.childrenCommands.isEmpty && nodes.childrenSources.isEmpty { return self }
        var menus = self.menus
        withoutActuallyEscaping(children) { commands in
            let filling = Filling(commands: commands, provided: provided)
            for i in menus.indices { NodeSpec.fill(&menus[i], prefix: "", depth: 0, filling) }
        }
        var filled = MenuConfig(file: file, menus: menus)
        filled.tray = tray
        return filled
    }
}

/// What fills the groups whose children are not the config's: a command's output by
/// the group's path, and what the daemon provides for each `children-from` source.
struct Filling {
    var commands: (String) -> [NodeSpec]
    var provided: [ChildrenSource: [NodeSpec]]

    func children(of node: NodeSpec, at path: String) -> [NodeSpec]? {
        if node.childrenCommand != nil { return commands(path) }
        if let source = node.childrenFrom { return provided[source] ?? [.loadingRow] }
        return nil
    }
}

extension NodeSpec {
    /// `children` for the group at `path`, `depth` deep: each `children-cmd` group
    /// among them given `filling(path)` as its children, each `children-from` group
    /// its own, and nothing below ``MenuTree/maxDepth``.
    static func filled(
        _ children: [NodeSpec], under path: String, depth: Int, filling: Filling
    ) -> [NodeSpec] {
        guard depth < MenuTree.maxDepth else { return children.isEmpty ? [] : [.tooDeepRow] }
        var filled = children
        for i in filled.indices { fill(&filled[i], prefix: path + "/", depth: depth + 1, filling) }
        return filled
    }

    /// Fills `node`, `depth` deep below a parent whose path and `/` are `prefix`, as
    /// ``MenuConfig/fillingChildren(_:)`` does.
    static func fill(_ node: inout NodeSpec, prefix: String, depth: Int, _ children: Filling) {
        let path = prefix + node.id
        guard depth < MenuTree.maxDepth else {
            // A group this deep keeps one row that says why it has no others.
            let dynamic = node.childrenCommand != nil || node.childrenFrom != nil
            node.children = dynamic || !node.children.isEmpty ? [.tooDeepRow] : []
            return
        }
        if let filled = children.children(of: node, at: path) { node.children = filled }
        for i in node.children.indices {
            fill(&node.children[i], prefix: path + "/", depth: depth + 1, children)
        }
    }
}

extension NodeSpec {
    /// The one child of a `children-cmd` group before its command has run, so that
    /// the group can be opened at all.
    public static let loadingRow = NodeSpec(
        id: "loading", kind: .item, title: TitleTemplate(literal: "Loading…"))

    /// The one child of a group at ``MenuTree/maxDepth``, whose children would be
    /// nested deeper than a menu may be: the group opens on why it shows nothing.
    public static let tooDeepRow = errorRow("nested deeper than \(MenuTree.maxDepth) levels")

    /// The one child of a `children-cmd` group whose command failed: the group stays
    /// usable and shows why.
    public static func errorRow(_ message: String) -> NodeSpec {
        NodeSpec(id: "error", kind: .item, title: TitleTemplate(literal: "Error: \(message)"))
    }

    /// `children` followed by an error row, for a `children-cmd` group whose command
    /// failed after it had printed them: the group keeps what it showed and says why
    /// it is not new. The row's id is `error`, or `error-2` and on when a child has
    /// that id already.
    public static func appendingErrorRow(_ message: String, to children: [NodeSpec]) -> [NodeSpec] {
        var row = errorRow(message)
        let ids = Set(children.map(\.id))
        var k = 1
        while ids.contains(row.id) {
            k += 1
            row.id = "error-\(k)"
        }
        return children + [row]
    }
}

extension ModelCore {
    /// Whether group `g` shows no more than the row ``NodeSpec/loadingRow`` makes,
    /// or nothing.
    func showsOnlyLoadingRow(_ g: Int) -> Bool {
        let row = NodeSpec.loadingRow
        switch tree.childCounts[g] {
        case 0: return true
        case 1:
            return tree.size(g + 1) == 1 && tree.ids[g + 1] == row.id && tree.kinds[g + 1] == row.kind
                && tree.titleTemplates[g + 1] == nil
                && TitleTemplate(literal: tree.titles[g + 1]) == row.title
                && tree.execs[g + 1] == nil && tree.subtitles[g + 1] == nil && tree.icons[g + 1] == nil
        default: return false
        }
    }
}
