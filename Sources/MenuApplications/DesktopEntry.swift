/// One application as its desktop entry describes it: what the menu shows of it and
/// how it is started. Read from the file's bytes by ``DesktopEntry/read(_:id:file:locale:)``,
/// which keeps only the keys the menu uses and the best translation of each
/// `localestring` for the user's locale.
public struct DesktopEntry: Sendable, Equatable {
    /// The desktop-file id: the path below the `applications` directory with `/` made
    /// `-` (`org.gnome.Maps.desktop`).
    public var id: String
    /// The file it was read from.
    public var file: String
    public var type: String
    public var name: String
    public var genericName: String?
    public var comment: String?
    public var icon: String?
    /// The program and its arguments, field codes filled; empty for an application
    /// started only over D-Bus.
    public var arguments: [String]
    public var tryExec: String?
    public var terminal = false
    public var noDisplay = false
    public var hidden = false
    public var dbusActivatable = false
    public var onlyShowIn: [String]?
    public var notShowIn: [String]?
    public var categories: [String] = []
    public var actions: [Action] = []

    public init(
        id: String, file: String, type: String, name: String, genericName: String? = nil,
        comment: String? = nil, icon: String? = nil, arguments: [String]
    ) {
        self.id = id
        self.file = file
        self.type = type
        self.name = name
        self.genericName = genericName
        self.comment = comment
        self.icon = icon
        self.arguments = arguments
    }

    /// A `[Desktop Action ID]` the entry lists in `Actions`.
    public struct Action: Sendable, Equatable {
        public var id: String
        public var name: String
        public var icon: String?
        public var arguments: [String]

        public init(id: String, name: String, icon: String?, arguments: [String]) {
            self.id = id
            self.name = name
            self.icon = icon
            self.arguments = arguments
        }
    }

    /// Why a file is not read as an entry: one line for the log.
    public struct Unreadable: Error, Equatable, CustomStringConvertible {
        public var description: String

        public init(description: String) { self.description = description }
    }

    /// The well-known D-Bus name of an application activated over D-Bus: its id
    /// without `.desktop`.
    public var busName: String { String(id.dropLast(id.hasSuffix(".desktop") ? 8 : 0)) }
}

extension DesktopEntry {
    /// The most a desktop entry may be: no real one comes near it, and a bigger file
    /// is not read further.
    public static let sizeLimit = 1 << 20

    /// Reads the entry of `bytes`, the contents of `file`, whose desktop-file id is
    /// `id`. Only `[Desktop Entry]` and the `[Desktop Action …]` groups it lists are
    /// kept. A file that is not UTF-8, has a line that is neither a group, a key nor a
    /// comment, or lacks what an application needs is refused with why.
    public static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, id: String, file: String, locale: DesktopLocale
    ) throws(Unreadable) -> DesktopEntry {
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw Unreadable(description: "not UTF-8")
        }
        // Group 0 is [Desktop Entry]; the others are actions, named in `actionNames`.
        var groups = [KeyGroup(locale: locale)]
        var actionNames: [String] = []
        var seenMain = false
        // The group the lines read belong to: nil for one that is skipped.
        var current: Int?
        var inSomeGroup = false
        var line = 0
        var start = 0
        let n = bytes.count
        var problem: String?
        while start < n {
            line += 1
            var end = start
            while end < n, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            var s = start
            var e = end
            if e > s, bytes[e - 1] == UInt8(ascii: "\r") { e -= 1 }
            while s < e, bytes[s] == UInt8(ascii: " ") || bytes[s] == UInt8(ascii: "\t") { s += 1 }
            start = end + 1
            if s == e || bytes[s] == UInt8(ascii: "#") { continue }
            if bytes[s] == UInt8(ascii: "[") {
                while e > s, bytes[e - 1] == UInt8(ascii: " ") || bytes[e - 1] == UInt8(ascii: "\t") {
                    e -= 1
                }
                guard e - s >= 2, bytes[e - 1] == UInt8(ascii: "]") else {
                    problem = "line \(line): a group header without its ']'"
                    break
                }
                let name = UnsafeBufferPointer(rebasing: bytes[(s + 1)..<(e - 1)])
                inSomeGroup = true
                if name.elementsEqual("Desktop Entry".utf8) {
                    guard !seenMain else {
                        problem = "line \(line): a second [Desktop Entry] group"
                        break
                    }
                    seenMain = true
                    current = 0
                } else if name.starts(with: "Desktop Action ".utf8) {
                    actionNames.append(String(decoding: name.dropFirst(15), as: UTF8.self))
                    groups.append(KeyGroup(locale: locale))
                    current = groups.count - 1
                } else {
                    current = nil
                }
                continue
            }
            guard let eq = UnsafeBufferPointer(rebasing: bytes[s..<e]).firstIndex(of: UInt8(ascii: "="))
            else {
                problem = "line \(line): neither a key, a group nor a comment"
                break
            }
            guard inSomeGroup else {
                problem = "line \(line): a key before the first group"
                break
            }
            guard let group = current else { continue }
            var keyEnd = s + eq
            while keyEnd > s, bytes[keyEnd - 1] == UInt8(ascii: " ") { keyEnd -= 1 }
            var valueStart = s + eq + 1
            while valueStart < e, bytes[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
            guard keyEnd > s else {
                problem = "line \(line): a key without a name"
                break
            }
            groups[group].take(
                key: UnsafeBufferPointer(rebasing: bytes[s..<keyEnd]),
                value: UnsafeBufferPointer(rebasing: bytes[valueStart..<e]))
        }
        var actionGroups: [String: KeyGroup] = [:]
        // A group given twice: the first counts.
        for (k, name) in actionNames.enumerated().reversed() { actionGroups[name] = groups[k + 1] }
        let main = groups[0]
        if let problem { throw Unreadable(description: problem) }
        guard seenMain else { throw Unreadable(description: "no [Desktop Entry] group") }
        return try entry(main, actionGroups, id: id, file: file)
    }

    private static func entry(
        _ main: KeyGroup, _ actionGroups: [String: KeyGroup], id: String, file: String
    ) throws(Unreadable) -> DesktopEntry {
        guard let type = main.type else { throw Unreadable(description: "no Type") }
        guard let name = main.name.value, !name.isEmpty else { throw Unreadable(description: "no Name") }
        var entry = DesktopEntry(
            id: id, file: file, type: type, name: name, genericName: main.genericName.value,
            comment: main.comment.value, icon: main.icon.flatMap { $0.isEmpty ? nil : $0 }, arguments: [])
        entry.tryExec = main.tryExec
        entry.terminal = main.terminal
        entry.noDisplay = main.noDisplay
        entry.hidden = main.hidden
        entry.dbusActivatable = main.dbusActivatable
        entry.onlyShowIn = main.onlyShowIn.map(KeyGroup.list)
        entry.notShowIn = main.notShowIn.map(KeyGroup.list)
        entry.categories = main.categories.map(KeyGroup.list) ?? []
        // Only an application is ever started, and only one that is shown needs its
        // command: a hidden one must not be refused for a command it never runs.
        guard type == "Application", !entry.hidden, !entry.noDisplay else { return entry }
        let fields = DesktopExec.Fields(name: name, icon: entry.icon, file: file)
        if let exec = main.exec {
            do throws(DesktopExec.Invalid) {
                entry.arguments = try DesktopExec.arguments(exec, fields)
            } catch {
                throw Unreadable(description: error.description)
            }
        } else if !entry.dbusActivatable {
            throw Unreadable(description: "no Exec")
        }
        var seen = Set<String>()
        for action in main.actions.map(KeyGroup.list) ?? []
        where !action.isEmpty && seen.insert(action).inserted {
            // An action listed without its group, or without a name, is left out.
            guard let group = actionGroups[action], let actionName = group.name.value, !actionName.isEmpty
            else { continue }
            var arguments: [String] = []
            if let exec = group.exec {
                let actionFields = DesktopExec.Fields(
                    name: actionName, icon: group.icon ?? entry.icon, file: file)
                guard let parsed = try? DesktopExec.arguments(exec, actionFields) else { continue }
                arguments = parsed
            } else if !entry.dbusActivatable {
                continue
            }
            entry.actions.append(
                Action(
                    id: action, name: actionName, icon: group.icon.flatMap { $0.isEmpty ? nil : $0 },
                    arguments: arguments))
        }
        return entry
    }
}

/// A translatable value as it is read: the best translation so far and how well its
/// locale matched.
struct Localized {
    var value: String?
    var rank = Int.max

    mutating func offer(_ value: @autoclosure () -> String, rank: Int) {
        guard rank < self.rank else { return }
        self.value = value()
        self.rank = rank
    }
}

/// The keys of one group that the menu uses, as their lines are read.
struct KeyGroup {
    let locale: DesktopLocale
    var type: String?
    var name = Localized()
    var genericName = Localized()
    var comment = Localized()
    var icon: String?
    var exec: String?
    var tryExec: String?
    var terminal = false
    var noDisplay = false
    var hidden = false
    var dbusActivatable = false
    var onlyShowIn: String?
    var notShowIn: String?
    var categories: String?
    var actions: String?

    init(locale: DesktopLocale) { self.locale = locale }

    /// Takes one `key=value` line; keys the menu does not use cost a comparison or two.
    mutating func take(key: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        // `Name[de]`: the base key and the locale's rank.
        var base = key
        var rank = locale.unlocalized
        if key.last == UInt8(ascii: "]"), let open = key.firstIndex(of: UInt8(ascii: "[")) {
            base = UnsafeBufferPointer(rebasing: key[..<open])
            guard let r = locale.rank(UnsafeBufferPointer(rebasing: key[(open + 1)..<(key.count - 1)])) else {
                return
            }
            rank = r
        }
        let localized = rank != locale.unlocalized
        func text() -> String { KeyGroup.unescape(value) }
        func flag() -> Bool {
            value.elementsEqual("true".utf8) || value.elementsEqual("1".utf8)
        }
        switch base.count {
        case 4:
            if base.elementsEqual("Name".utf8) {
                name.offer(text(), rank: rank)
            } else if base.elementsEqual("Type".utf8), !localized {
                type = text()
            } else if base.elementsEqual("Icon".utf8) {
                // Icons may be localized too; the best one wins like a name.
                if !localized || icon == nil { icon = text() }
            } else if base.elementsEqual("Exec".utf8), !localized {
                exec = text()
            }
        case 6 where !localized:
            if base.elementsEqual("Hidden".utf8) { hidden = flag() }
        case 7:
            if base.elementsEqual("Comment".utf8) {
                comment.offer(text(), rank: rank)
            } else if base.elementsEqual("TryExec".utf8), !localized {
                tryExec = text()
            } else if base.elementsEqual("Actions".utf8), !localized {
                actions = text()
            }
        case 8 where !localized:
            if base.elementsEqual("Terminal".utf8) { terminal = flag() }
        case 9 where !localized:
            if base.elementsEqual("NoDisplay".utf8) {
                noDisplay = flag()
            } else if base.elementsEqual("NotShowIn".utf8) {
                notShowIn = text()
            }
        case 10 where !localized:
            if base.elementsEqual("OnlyShowIn".utf8) {
                onlyShowIn = text()
            } else if base.elementsEqual("Categories".utf8) {
                categories = text()
            }
        case 11:
            if base.elementsEqual("GenericName".utf8) { genericName.offer(text(), rank: rank) }
        case 15 where !localized:
            if base.elementsEqual("DBusActivatable".utf8) { dbusActivatable = flag() }
        default:
            break
        }
    }

    /// A value with the string escapes undone: `\s`, `\n`, `\t`, `\r`, `\\`. A list's
    /// `\;` is kept for ``list(_:)``.
    static func unescape(_ value: UnsafeBufferPointer<UInt8>) -> String {
        guard value.contains(UInt8(ascii: "\\")) else { return String(decoding: value, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(value.count)
        var i = 0
        while i < value.count {
            let c = value[i]
            if c == UInt8(ascii: "\\"), i + 1 < value.count {
                switch value[i + 1] {
                case UInt8(ascii: "s"): out.append(UInt8(ascii: " "))
                case UInt8(ascii: "n"): out.append(UInt8(ascii: "\n"))
                case UInt8(ascii: "t"): out.append(UInt8(ascii: "\t"))
                case UInt8(ascii: "r"): out.append(UInt8(ascii: "\r"))
                case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
                case UInt8(ascii: ";"): out += [UInt8(ascii: "\\"), UInt8(ascii: ";")]
                default: out += [c, value[i + 1]]
                }
                i += 2
                continue
            }
            out.append(c)
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A list value (`a;b;c;`) as its entries, `\;` standing for a `;` in one.
    static func list(_ text: String) -> [String] {
        var out: [String] = []
        var current = ""
        var escaped = false
        for c in text {
            if escaped {
                if c != ";" { current.append("\\") }
                current.append(c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == ";" {
                if !current.isEmpty { out.append(current) }
                current = ""
            } else {
                current.append(c)
            }
        }
        if escaped { current.append("\\") }
        if !current.isEmpty { out.append(current) }
        return out
    }
}
