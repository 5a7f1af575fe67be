/// Menu text (titles, values, children-cmd output) is data from outside the config
/// file: a Wi-Fi network's name is chosen by whoever runs the access point. Every
/// front end reads some characters as structure (a newline ends a launcher's row, NUL
/// and `\x1f` start a rofi row option, `%{` opens a polybar action tag, `<` and `&`
/// are Pango markup), so menu text reaches them only through these functions.
public enum InertText {
    /// The text on one line with every control character visible: newline, carriage
    /// return and tab become a space (titles read from a command's output may carry
    /// them), and the others their Unicode control picture (`\x1f` → `␟`), so a stray
    /// byte shows instead of acting or vanishing. A terminal escape (ESC) is shown too.
    public static func oneLine(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7f }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0a, 0x0d: out.append(" ")
            case 0..<0x20: out.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7f: out.append("\u{2421}")
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// One line for Pango markup (waybar, rofi's message, i3bar with `markup=pango`):
    /// `&`, `<` and `>` escaped, so no tag or entity comes from the text.
    public static func pango(_ text: String) -> String { entities(oneLine(text)) }

    /// `&`, `<` and `>` as XML entities, and with `quotes` `"` and `'` too, for an
    /// attribute's value (openbox's menu XML).
    public static func entities(_ text: String, quotes: Bool = false) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where quotes: out += "&quot;"
            case "'" where quotes: out += "&apos;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// One line for polybar's formatting tags. polybar 3.6 has no escape for `%`: it
    /// reads `%{` as a tag anywhere, and `%%` shows as two percent signs. A `%` is
    /// followed by an empty offset tag (`%{O0}`, which draws nothing), so no `%` of the
    /// text can be followed by the `{` of the text, and "50%" still shows as "50%".
    public static func polybar(_ text: String) -> String {
        oneLine(text).replacing("%", with: "%%{O0}")
    }
}
