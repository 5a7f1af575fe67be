/// Node ids are path segments (`display/volume`) that users type in shells, so
/// they are restricted to characters that never need quoting.
package enum NodeID {
    package static func isValid(_ id: String) -> Bool {
        var id = id
        return id.withUTF8 { isValid($0) }
    }

    package static func isValid(_ id: UnsafeBufferPointer<UInt8>) -> Bool {
        !id.isEmpty && id.allSatisfy(isIDByte)
    }

    static func isIDByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default: return false
        }
    }

    /// The id a node gets when the config names none: the title's literal text in
    /// lowercase, with every other run of characters folded into one `-`. Returns
    /// "" when nothing usable is left.
    package static func derive(from title: TitleTemplate) -> String {
        var out: [UInt8] = []
        var pendingDash = false
        for segment in title.segments {
            guard case .literal(let text) = segment else { continue }
            fold(text, into: &out, pendingDash: &pendingDash)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// ``derive(from:)`` for a title without placeholders.
    package static func derive(fromText text: String) -> String {
        var out: [UInt8] = []
        var pendingDash = false
        fold(text, into: &out, pendingDash: &pendingDash)
        return String(decoding: out, as: UTF8.self)
    }

    private static func fold(_ text: String, into out: inout [UInt8], pendingDash: inout Bool) {
        for var b in text.utf8 {
            if b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") { b += 32 }
            let keep =
                (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z"))
                || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: ".")
                || b == UInt8(ascii: "_")
            if keep {
                if pendingDash && !out.isEmpty { out.append(UInt8(ascii: "-")) }
                pendingDash = false
                out.append(b)
            } else {
                pendingDash = true
            }
        }
    }
}
