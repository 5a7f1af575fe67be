import MenuCore
import MenuProtocol

/// Menu text as a tray shows it: data, never markup, and a mnemonic only where the
/// node's access key puts one. dbusmenu labels are plain text in which `_` marks the
/// access key (`__` is a literal one);
/// status-item tooltips may hold basic markup in some hosts; and a newline or other
/// control character would break the menu's line.
enum TrayLabel {
    /// A dbusmenu `label`: every `_` doubled, control characters as spaces, and with
    /// a `mnemonic` a `_` before the first letter that is that key (compared as keys
    /// are, without case or accent), or ` (_K)` after the text when none is.
    static func menuLabel(_ text: String, mnemonic: Character? = nil) -> String {
        var out = String.UnicodeScalarView()
        var marked = mnemonic == nil
        let key = mnemonic?.unicodeScalars.first.map(TextFolding.fold)
        for scalar in text.unicodeScalars {
            if scalar == "_" {
                out.append("_")
                out.append("_")
                continue
            }
            if !marked, TextFolding.fold(scalar) == key {
                out.append("_")
                marked = true
            }
            out.append(Self.isControl(scalar) ? " " : scalar)
        }
        var label = String(out)
        if !marked, let mnemonic { label += " (_\(mnemonic.uppercased()))" }
        return label
    }

    /// A tooltip's title or text: `&`, `<` and `>` as entities, control characters
    /// as spaces.
    static func tooltip(_ text: String) -> String { InertText.entities(plain(text)) }

    /// Plain text for a property shown as it is (an item's title): control
    /// characters as spaces.
    static func plain(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { Self.isControl($0) ? " " : $0 }))
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}"
            || scalar == "\u{2029}"
    }
}
