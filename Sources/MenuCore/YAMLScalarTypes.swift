/// How the loader reads YAML 1.1 plain scalars as booleans and numbers. Only plain
/// scalars qualify: `"yes"` in quotes is text, which is how YAML users opt out.
extension YAMLScalar {
    /// `true/false/yes/no/on/off` in any case.
    var bool: Bool? {
        guard isPlain, text.utf8.count <= 5 else { return nil }
        switch text.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: return nil
        }
    }

    /// A finite decimal number. Hex, `inf` and `nan` are refused because a menu
    /// bound written that way is a mistake, not an intent.
    var number: Double? {
        guard isPlain, !text.isEmpty else { return nil }
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"),
                UInt8(ascii: "."),
                UInt8(ascii: "e"), UInt8(ascii: "E"):
                continue
            default: return nil
            }
        }
        guard let n = Double(text), n.isFinite else { return nil }
        return n
    }
}
