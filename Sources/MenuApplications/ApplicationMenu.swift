import MenuCore

/// The children of a `children-from: applications` group: one group per main
/// category of the Desktop Menu Specification, in the order of their titles with
/// "Other" last, each holding its applications sorted by name (ignoring case and
/// the accents of Latin letters, ``sortKey(_:)``);
/// empty categories are left out. An application is an item, or, when it has
/// actions, a group whose first child "Open" starts it and whose other children are
/// its actions, so that it stays one click to start.
///
/// Titles are the entries' text and never templates: `{value}` in a name is shown
/// as written. Ids come from the desktop-file ids, with every character an id may
/// not hold made `_` and a number added where two siblings would clash.
public struct ApplicationMenu: Sendable {
    /// The group's children.
    public var children: [NodeSpec]
    /// How each item starts, by its path below the group (`network/firefox`,
    /// `network/firefox/new-window`).
    public var launches: [String: ApplicationLaunch]
    /// The entries it was made from, sorted as shown: the same entries make the same
    /// menu.
    public var entries: [DesktopEntry]

    /// A main category: its name in `Categories`, the id, title and icon of its
    /// group. The icons are the Icon Naming Specification's for categories, as the
    /// freedesktop menus' `.directory` files name them.
    public struct Category: Sendable {
        public var name: String
        public var id: String
        public var title: String
        public var icon: String
    }

    /// The main categories, in the order their groups come. `Audio` and `Video`
    /// require `AudioVideo` and go with it.
    public static let categories: [Category] = [
        Category(name: "Utility", id: "utility", title: "Accessories", icon: "applications-accessories"),
        Category(
            name: "Development", id: "development", title: "Development", icon: "applications-development"),
        Category(name: "Education", id: "education", title: "Education", icon: "applications-science"),
        Category(name: "Game", id: "game", title: "Games", icon: "applications-games"),
        Category(name: "Graphics", id: "graphics", title: "Graphics", icon: "applications-graphics"),
        Category(name: "Network", id: "network", title: "Internet", icon: "applications-internet"),
        Category(name: "AudioVideo", id: "audiovideo", title: "Multimedia", icon: "applications-multimedia"),
        Category(name: "Office", id: "office", title: "Office", icon: "applications-office"),
        Category(name: "Science", id: "science", title: "Science", icon: "applications-science"),
        Category(name: "Settings", id: "settings", title: "Settings", icon: "preferences-desktop"),
        Category(name: "System", id: "system", title: "System", icon: "applications-system"),
    ]
    public static let other = Category(name: "", id: "other", title: "Other", icon: "applications-other")

    /// The menu of `entries`, the shown ones of a scan.
    public init(_ entries: [DesktopEntry]) {
        // Indices are sorted rather than the entries, which are large to move.
        let keys = entries.map { Self.sortKey($0.name) }
        let order = entries.indices.sorted {
            keys[$0] != keys[$1]
                ? keys[$0].lexicographicallyPrecedes(keys[$1]) : entries[$0].id < entries[$1].id
        }
        self.entries = order.map { entries[$0] }
        // The entries of each category, by index: entries are large to copy.
        var buckets = [[Int]](repeating: [], count: Self.categories.count + 1)
        for (i, entry) in self.entries.enumerated() {
            var bucket = Self.categories.count
            for category in entry.categories {
                if let k = Self.categoryIndex[category] {
                    bucket = k
                    break
                }
            }
            buckets[bucket].append(i)
        }
        var children: [NodeSpec] = []
        var launches: [String: ApplicationLaunch] = [:]
        for (k, members) in buckets.enumerated() where !members.isEmpty {
            let category = k < Self.categories.count ? Self.categories[k] : Self.other
            var ids = Set<String>()
            var apps: [NodeSpec] = []
            apps.reserveCapacity(members.count)
            for i in members {
                let entry = self.entries[i]
                let id = Self.unique(Self.nodeID(entry.busName), in: &ids)
                let path = category.id + "/" + id
                let main = ApplicationLaunch(entry, action: nil)
                var node = NodeSpec(
                    id: id, kind: .item, title: TitleTemplate(literal: entry.name),
                    subtitle: (entry.comment ?? entry.genericName).map { TitleTemplate(literal: $0) },
                    icon: entry.icon, keywords: Self.keywords(of: entry))
                if entry.actions.isEmpty {
                    launches[path] = main
                } else {
                    node.kind = .group
                    var actionIDs: Set<String> = ["open"]
                    node.children = [
                        NodeSpec(
                            id: "open", kind: .item, title: TitleTemplate(literal: "Open"), icon: entry.icon)
                    ]
                    launches[path + "/open"] = main
                    for action in entry.actions {
                        let actionID = Self.unique(Self.nodeID(action.id), in: &actionIDs)
                        node.children.append(
                            NodeSpec(
                                id: actionID, kind: .item, title: TitleTemplate(literal: action.name),
                                icon: action.icon ?? entry.icon))
                        launches[path + "/" + actionID] = ApplicationLaunch(entry, action: action)
                    }
                }
                apps.append(node)
            }
            children.append(
                NodeSpec(
                    id: category.id, kind: .group, title: TitleTemplate(literal: category.title),
                    icon: category.icon, children: apps))
        }
        self.children = children
        self.launches = launches
    }

    /// What finds an application besides its name: its generic name, keywords and
    /// comment, localized as its name is, and the names of its categories.
    static func keywords(of entry: DesktopEntry) -> [String] {
        [entry.genericName, entry.comment].compactMap { $0 } + entry.keywords + entry.categories
    }

    /// What names sort by: folded as search folds them (``TextFolding``: lowercased,
    /// the Latin letters to their base letter) with combining accents dropped, so that
    /// a translated "Éditeur" comes among the E's and not after "Zoom", as a plain
    /// comparison of code points puts it. menud has no collation library (no ICU);
    /// this covers the languages written in Latin letters. The lowercased name
    /// follows, so that names differing only by accents keep one order.
    public static func sortKey(_ name: String) -> [UInt32] {
        var key: [UInt32] = []
        key.reserveCapacity(name.unicodeScalars.count * 2 + 1)
        for scalar in name.unicodeScalars where !(0x300...0x36F).contains(scalar.value) {
            key.append(TextFolding.fold(scalar).value)
        }
        key.append(0)
        key += name.lowercased().unicodeScalars.map(\.value)
        return key
    }

    /// The index in ``categories`` of each main category's name, and of `Audio` and
    /// `Video`, which go with `AudioVideo`.
    static let categoryIndex: [String: Int] = {
        var index = Dictionary(uniqueKeysWithValues: categories.enumerated().map { ($1.name, $0) })
        index["Audio"] = index["AudioVideo"]
        index["Video"] = index["AudioVideo"]
        return index
    }()

    /// The menu before the first scan has ended: nothing.
    public init() {
        children = []
        launches = [:]
        entries = []
    }

    /// `text` as a node id: each byte an id may not hold becomes `_`.
    static func nodeID(_ text: String) -> String {
        let bytes = text.utf8.map { b -> UInt8 in
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "-"):
                return b
            default: return UInt8(ascii: "_")
            }
        }
        return bytes.isEmpty ? "app" : String(decoding: bytes, as: UTF8.self)
    }

    /// `id`, or `id-2`, `id-3`, … when a sibling has it already; taken into `ids`.
    static func unique(_ id: String, in ids: inout Set<String>) -> String {
        var candidate = id
        var k = 1
        while !ids.insert(candidate).inserted {
            k += 1
            candidate = "\(id)-\(k)"
        }
        return candidate
    }
}

/// How one item of the applications menu starts its application.
public struct ApplicationLaunch: Sendable, Equatable {
    /// The application's name, for the log.
    public var name: String
    /// The desktop entry's file.
    public var file: String
    /// The program and its arguments, field codes filled: run as they are, never by
    /// a shell. Empty for an application started only over D-Bus.
    public var arguments: [String]
    /// Run in a terminal (`Terminal=true`).
    public var terminal: Bool
    /// The well-known name to activate over D-Bus (`DBusActivatable=true`).
    public var busName: String?
    /// The action, for `ActivateAction`; nil for the application itself.
    public var action: String?

    init(_ entry: DesktopEntry, action: DesktopEntry.Action?) {
        name = action.map { "\(entry.name): \($0.name)" } ?? entry.name
        file = entry.file
        arguments = action?.arguments ?? entry.arguments
        terminal = entry.terminal
        // A file name that is no bus name cannot be activated: its Exec runs.
        busName = entry.dbusActivatable && Self.isBusName(entry.busName) ? entry.busName : nil
        self.action = action?.id
    }

    /// Whether `name` is a well-known D-Bus name: two or more elements separated by
    /// `.`, each of ASCII letters, digits, `_` and `-`, not starting with a digit, 255
    /// bytes at most.
    static func isBusName(_ name: String) -> Bool {
        let elements = name.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return name.utf8.count <= 255 && elements.count >= 2
            && elements.allSatisfy { element in
                guard let first = element.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
                else {
                    return false
                }
                return element.allSatisfy { b in
                    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b)
                        || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b)
                        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: "_")
                        || b == UInt8(ascii: "-")
                }
            }
    }

    /// The object path of ``busName``'s application: `/` and the name with `.` made
    /// `/` and `-` made `_`, as the Desktop Entry Specification says.
    public var objectPath: String? {
        busName.map { name in
            "/" + String(name.map { $0 == "." ? "/" : $0 == "-" ? "_" : $0 })
        }
    }
}
