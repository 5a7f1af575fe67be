/// A freedesktop key file (`index.theme`, GTK's `settings.ini`): `[Group]` headers and
/// `Key=Value` lines, `#` comments. Keys and values are trimmed of blanks; a line that
/// is neither is skipped, as GTK skips it, so that one bad line costs only itself.
struct KeyFile {
    /// Each group's keys, in the order the groups come; a group named twice is one.
    private(set) var groups: [String: [String: String]] = [:]

    init(text: String) {
        // Bytes, not Characters: hicolor's index.theme is four thousand lines, and
        // each Character is found by grapheme breaking. The group being read, and
        // its keys, are stored once the next group starts.
        var group: String?
        var keys: [String: String] = [:]
        func store() {
            guard let group else { return }
            // A group named twice is one; the first of a key wins, as in GLib.
            groups[group, default: [:]].merge(keys) { first, _ in first }
        }
        let bytes = Array(text.utf8)
        func isBlank(_ b: UInt8) -> Bool { b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") }
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n"), bytes[end] != UInt8(ascii: "\r") {
                end += 1
            }
            var s = start
            var e = end
            start = end + 1
            while s < e, isBlank(bytes[s]) { s += 1 }
            while e > s, isBlank(bytes[e - 1]) { e -= 1 }
            guard s < e, bytes[s] != UInt8(ascii: "#"), bytes[s] != UInt8(ascii: ";") else { continue }
            if bytes[s] == UInt8(ascii: "[") {
                guard bytes[e - 1] == UInt8(ascii: "]"), e - s >= 2 else { continue }
                store()
                group = String(decoding: bytes[(s + 1)..<(e - 1)], as: UTF8.self)
                keys = [:]
                continue
            }
            guard group != nil, let equals = bytes[s..<e].firstIndex(of: UInt8(ascii: "=")) else { continue }
            var keyEnd = equals
            while keyEnd > s, isBlank(bytes[keyEnd - 1]) { keyEnd -= 1 }
            var valueStart = equals + 1
            while valueStart < e, isBlank(bytes[valueStart]) { valueStart += 1 }
            let key = String(decoding: bytes[s..<keyEnd], as: UTF8.self)
            if keys[key] == nil { keys[key] = String(decoding: bytes[valueStart..<e], as: UTF8.self) }
        }
        store()
    }

    subscript(group: String, key: String) -> String? { groups[group]?[key] }

    /// A list value: comma-separated, each item trimmed, empty ones left out.
    func list(_ group: String, _ key: String) -> [String] {
        (self[group, key] ?? "").split(separator: ",").map { String($0.trimmingBlanks) }.filter {
            !$0.isEmpty
        }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    var trimmingBlanks: SubSequence {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) })
        else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
