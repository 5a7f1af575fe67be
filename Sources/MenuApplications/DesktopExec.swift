/// An `Exec` line of a desktop entry as the arguments of a program, run without a
/// shell. The value is split by the Desktop Entry Specification's quoting rules:
/// arguments are separated by spaces, and one may be quoted whole in double quotes,
/// inside which a backslash escapes `"`, `` ` ``, `$` and `\`. Then the field codes
/// are filled: no file or URL is ever given, so `%f %F %u %U` go; `%i` becomes
/// `--icon ICON`, `%c` the name, `%k` the entry's file, `%%` a `%`; the deprecated
/// `%d %D %n %N %v %m` go. Any other code makes the line invalid, as the
/// specification says.
///
/// Nothing here is ever given to a shell, so `$(…)`, `;` or `|` in a value stay
/// the text they are.
public enum DesktopExec {
    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public var description: String

        public init(description: String) { self.description = description }
    }

    /// What fills the field codes.
    public struct Fields: Sendable {
        public var name: String
        public var icon: String?
        public var file: String

        public init(name: String, icon: String?, file: String) {
            self.name = name
            self.icon = icon
            self.file = file
        }
    }

    /// The program and its arguments of `value` (the key's value, its string escapes
    /// already undone), field codes filled from `fields`.
    public static func arguments(_ value: String, _ fields: Fields) throws(Invalid) -> [String] {
        var out: [String] = []
        for argument in try split(value) { try expand(argument, fields, into: &out) }
        guard let program = out.first, !program.isEmpty else {
            throw Invalid(description: "Exec names no program")
        }
        // An argument ends at a NUL on its way to the program, which would then be
        // given less than the log and the replies show.
        if out.contains(where: { $0.utf8.contains(0) }) {
            throw Invalid(description: "Exec holds a NUL character, which no argument can carry")
        }
        return out
    }

    /// An argument as it was written: its text with the quoting undone, and whether
    /// any of it was quoted.
    struct Written: Equatable {
        var text: [UInt8]
        var quoted: Bool
    }

    /// `value` split into arguments, the quoting undone.
    static func split(_ value: String) throws(Invalid) -> [Written] {
        var out: [Written] = []
        var current: [UInt8] = []
        var inArgument = false
        var quoted = false
        let b = Array(value.utf8)
        var i = 0
        while i < b.count {
            let c = b[i]
            switch c {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"):
                if inArgument {
                    out.append(Written(text: current, quoted: quoted))
                    current = []
                    inArgument = false
                    quoted = false
                }
            case UInt8(ascii: "\""):
                inArgument = true
                quoted = true
                i += 1
                var closed = false
                while i < b.count {
                    let d = b[i]
                    if d == UInt8(ascii: "\"") {
                        closed = true
                        break
                    }
                    if d == UInt8(ascii: "\\"), i + 1 < b.count, escapable(b[i + 1]) {
                        current.append(b[i + 1])
                        i += 2
                        continue
                    }
                    current.append(d)
                    i += 1
                }
                guard closed else { throw Invalid(description: "Exec has an unterminated quote") }
            case UInt8(ascii: "\\") where i + 1 < b.count:
                // Outside quotes the reserved characters should not appear at all; a
                // backslash then keeps the next one as it is, as a shell would.
                inArgument = true
                current.append(b[i + 1])
                i += 1
            default:
                inArgument = true
                current.append(c)
            }
            i += 1
        }
        if inArgument { out.append(Written(text: current, quoted: quoted)) }
        return out
    }

    private static func escapable(_ c: UInt8) -> Bool {
        c == UInt8(ascii: "\"") || c == UInt8(ascii: "`") || c == UInt8(ascii: "$") || c == UInt8(ascii: "\\")
    }

    /// The codes that stand for files or URLs, and the deprecated ones: no value.
    private static func dropped(_ code: UInt8) -> Bool {
        switch code {
        case UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "u"), UInt8(ascii: "U"), UInt8(ascii: "d"),
            UInt8(ascii: "D"), UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "v"), UInt8(ascii: "m"):
            return true
        default: return false
        }
    }

    /// Appends what `argument` expands to: nothing for an argument that is only a
    /// code with no value, two arguments for `%i`, else one.
    static func expand(_ argument: Written, _ fields: Fields, into out: inout [String]) throws(Invalid) {
        let t = argument.text
        if t.count == 2, t[0] == UInt8(ascii: "%") {
            if dropped(t[1]) { return }
            if t[1] == UInt8(ascii: "i") {
                if let icon = fields.icon, !icon.isEmpty { out += ["--icon", icon] }
                return
            }
        }
        var text: [UInt8] = []
        text.reserveCapacity(t.count)
        var i = 0
        while i < t.count {
            guard t[i] == UInt8(ascii: "%") else {
                text.append(t[i])
                i += 1
                continue
            }
            guard i + 1 < t.count else { throw Invalid(description: "Exec ends in a lone '%'") }
            let code = t[i + 1]
            switch code {
            case UInt8(ascii: "%"): text.append(UInt8(ascii: "%"))
            case UInt8(ascii: "c"): text += Array(fields.name.utf8)
            case UInt8(ascii: "k"): text += Array(fields.file.utf8)
            case UInt8(ascii: "i"): text += Array((fields.icon ?? "").utf8)
            case _ where dropped(code): break
            default:
                let shown = code < 0x80 && code >= 0x20 ? String(UnicodeScalar(code)) : "?"
                throw Invalid(description: "Exec has an unknown field code '%\(shown)'")
            }
            i += 2
        }
        out.append(String(decoding: text, as: UTF8.self))
    }

    /// `arguments` as one line of text for a log or a reply, quoted as a shell would
    /// read it back: only shown, never run.
    public static func shown(_ arguments: [String]) -> String {
        arguments.map { argument in
            let plain =
                !argument.isEmpty
                && argument.utf8.allSatisfy { b in
                    (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z"))
                        || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                        || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || "-_./=:,+@%".utf8.contains(b)
                }
            if plain { return argument }
            return "'" + argument.replacing("'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }
}
