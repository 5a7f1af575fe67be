#if canImport(Glibc)
    import Glibc
#endif

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
    /// `Keywords`, localized as the name is.
    public var keywords: [String] = []
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
        guard UTF8Check.isValid(bytes) else { throw Unreadable(description: "not UTF-8") }
        // Group 0 is [Desktop Entry]; the others are actions, named in `actionNames`.
        var groups = [KeyGroup()]
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
            let end: Int
            if let found = memchr(bytes.baseAddress! + start, Int32(UInt8(ascii: "\n")), n - start) {
                end = bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
            } else {
                end = n
            }
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
                if name.is("Desktop Entry") {
                    guard !seenMain else {
                        problem = "line \(line): a second [Desktop Entry] group"
                        break
                    }
                    seenMain = true
                    current = 0
                } else if name.starts(with: "Desktop Action ".utf8) {
                    actionNames.append(String(decoding: name.dropFirst(15), as: UTF8.self))
                    groups.append(KeyGroup())
                    current = groups.count - 1
                } else {
                    current = nil
                }
                continue
            }
            guard let equals = memchr(bytes.baseAddress! + s, Int32(UInt8(ascii: "=")), e - s),
                case let eq = (bytes.baseAddress! + s).distance(
                    to: equals.assumingMemoryBound(to: UInt8.self))
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
                key: UnsafeBufferPointer(rebasing: bytes[s..<keyEnd]), value: valueStart..<e, in: bytes,
                locale: locale)
        }
        var actionGroups: [String: KeyGroup] = [:]
        // A group given twice: the first counts.
        for (k, name) in actionNames.enumerated().reversed() { actionGroups[name] = groups[k + 1] }
        let main = groups[0]
        if let problem { throw Unreadable(description: problem) }
        guard seenMain else { throw Unreadable(description: "no [Desktop Entry] group") }
        return try entry(main, actionGroups, bytes, id: id, file: file)
    }

    private static func entry(
        _ main: KeyGroup, _ actionGroups: [String: KeyGroup], _ bytes: UnsafeBufferPointer<UInt8>, id: String,
        file: String
    ) throws(Unreadable) -> DesktopEntry {
        // The values are made strings only now, and only those the entry keeps.
        func text(_ range: Range<Int>?) -> String? {
            range.map { KeyGroup.unescape(UnsafeBufferPointer(rebasing: bytes[$0])) }
        }
        guard let type = text(main.type) else { throw Unreadable(description: "no Type") }
        guard let name = text(main.name.range), !name.isEmpty else {
            throw Unreadable(description: "no Name")
        }
        var entry = DesktopEntry(
            id: id, file: file, type: type, name: name, genericName: text(main.genericName.range),
            comment: text(main.comment.range), icon: text(main.icon.range).flatMap { $0.isEmpty ? nil : $0 },
            arguments: [])
        entry.tryExec = text(main.tryExec)
        entry.terminal = main.terminal
        entry.noDisplay = main.noDisplay
        entry.hidden = main.hidden
        entry.dbusActivatable = main.dbusActivatable
        entry.onlyShowIn = text(main.onlyShowIn).map(KeyGroup.list)
        entry.notShowIn = text(main.notShowIn).map(KeyGroup.list)
        entry.categories = text(main.categories).map(KeyGroup.list) ?? []
        entry.keywords = text(main.keywords.range).map(KeyGroup.list) ?? []
        // Only an application is ever started, and only one that is shown needs its
        // command: a hidden one must not be refused for a command it never runs.
        guard type == "Application", !entry.hidden, !entry.noDisplay else { return entry }
        let fields = DesktopExec.Fields(name: name, icon: entry.icon, file: file)
        if let exec = text(main.exec) {
            do throws(DesktopExec.Invalid) {
                entry.arguments = try DesktopExec.arguments(exec, fields)
            } catch {
                throw Unreadable(description: error.description)
            }
        } else if !entry.dbusActivatable {
            throw Unreadable(description: "no Exec")
        }
        var seen = Set<String>()
        for action in text(main.actions).map(KeyGroup.list) ?? []
        where !action.isEmpty && seen.insert(action).inserted {
            // An action listed without its group, or without a name, is left out.
            guard let group = actionGroups[action], let actionName = text(group.name.range),
                !actionName.isEmpty
            else { continue }
            let actionIcon = text(group.icon.range).flatMap { $0.isEmpty ? nil : $0 }
            var arguments: [String] = []
            if let exec = text(group.exec) {
                let actionFields = DesktopExec.Fields(
                    name: actionName, icon: actionIcon ?? entry.icon, file: file)
                guard let parsed = try? DesktopExec.arguments(exec, actionFields) else { continue }
                arguments = parsed
            } else if !entry.dbusActivatable {
                continue
            }
            entry.actions.append(
                Action(
                    id: action, name: actionName, icon: actionIcon,
                    arguments: arguments))
        }
        return entry
    }
}

/// A translatable value as it is read: the best translation so far and how well its
/// locale matched.
struct Localized {
    var range: Range<Int>?
    var rank = Int.max

    mutating func offer(_ range: Range<Int>, rank: Int) {
        guard rank < self.rank else { return }
        self.range = range
        self.rank = rank
    }
}

/// The keys of one group that the menu uses, as their lines are read: where each
/// value is in the file's bytes, which are made a string only if the entry keeps it.
struct KeyGroup {
    var type: Range<Int>?
    var name = Localized()
    var genericName = Localized()
    var comment = Localized()
    var keywords = Localized()
    /// Icons may be localized too; the best one wins like a name.
    var icon = Localized()
    var exec: Range<Int>?
    var tryExec: Range<Int>?
    var terminal = false
    var noDisplay = false
    var hidden = false
    var dbusActivatable = false
    var onlyShowIn: Range<Int>?
    var notShowIn: Range<Int>?
    var categories: Range<Int>?
    var actions: Range<Int>?

    /// Takes one `key=value` line, its value at `range` in `bytes`; keys the menu does
    /// not use cost a comparison or two.
    mutating func take(
        key: UnsafeBufferPointer<UInt8>, value range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>,
        locale: DesktopLocale
    ) {
        let value = UnsafeBufferPointer(rebasing: bytes[range])
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
        func flag() -> Bool {
            value.is("true") || value.is("1")
        }
        switch base.count {
        case 4:
            if base.is("Name") {
                name.offer(range, rank: rank)
            } else if base.is("Type"), !localized {
                type = range
            } else if base.is("Icon") {
                icon.offer(range, rank: rank)
            } else if base.is("Exec"), !localized {
                exec = range
            }
        case 6 where !localized:
            if base.is("Hidden") { hidden = flag() }
        case 7:
            if base.is("Comment") {
                comment.offer(range, rank: rank)
            } else if base.is("TryExec"), !localized {
                tryExec = range
            } else if base.is("Actions"), !localized {
                actions = range
            }
        case 8:
            if base.is("Keywords") {
                keywords.offer(range, rank: rank)
            } else if base.is("Terminal"), !localized {
                terminal = flag()
            }
        case 9 where !localized:
            if base.is("NoDisplay") {
                noDisplay = flag()
            } else if base.is("NotShowIn") {
                notShowIn = range
            }
        case 10 where !localized:
            if base.is("OnlyShowIn") {
                onlyShowIn = range
            } else if base.is("Categories") {
                categories = range
            }
        case 11:
            if base.is("GenericName") { genericName.offer(range, rank: rank) }
        case 15 where !localized:
            if base.is("DBusActivatable") { dbusActivatable = flag() }
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
        var current: [UInt8] = []
        var escaped = false
        for b in text.utf8 {
            if escaped {
                if b != UInt8(ascii: ";") { current.append(UInt8(ascii: "\\")) }
                current.append(b)
                escaped = false
            } else if b == UInt8(ascii: "\\") {
                escaped = true
            } else if b == UInt8(ascii: ";") {
                if !current.isEmpty { out.append(String(decoding: current, as: UTF8.self)) }
                current.removeAll(keepingCapacity: true)
            } else {
                current.append(b)
            }
        }
        if escaped { current.append(UInt8(ascii: "\\")) }
        if !current.isEmpty { out.append(String(decoding: current, as: UTF8.self)) }
        return out
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether the bytes are `text`'s: keys are compared this way, a `memcmp`, rather
    /// than walking a string's view byte by byte.
    @inline(__always) func `is`(_ text: StaticString) -> Bool {
        count == text.utf8CodeUnitCount && (count == 0 || memcmp(baseAddress!, text.utf8Start, count) == 0)
    }
}

/// UTF-8 validation without making a string: every desktop file is checked, and
/// most are small.
enum UTF8Check {
    static func isValid(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = b.baseAddress else { return true }
        var i = 0
        let n = b.count
        while i < n {
            // Most of a file is ASCII: eight bytes at a time.
            while i + 8 <= n,
                UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                i += 8
            }
            guard i < n else { break }
            let c = base[i]
            if c < 0x80 {
                i += 1
                continue
            }
            let length: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch c {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                upper = 0x9F
            case 0xF0:
                length = 4
                lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                upper = 0x8F
            default: return false
            }
            guard i + length <= n, base[i + 1] >= lower, base[i + 1] <= upper else { return false }
            var k = 2
            while k < length {
                guard base[i + k] & 0xC0 == 0x80 else { return false }
                k += 1
            }
            i += length
        }
        return true
    }
}
