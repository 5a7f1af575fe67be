import CGtk

/// The popup's keys as the daemon's focus moves (docs/protocol.md, "Focus and
/// navigation"), so that the popup moves the same focus a bar and a key binding
/// show: the arrows, Home and End, Page Up and Down, Enter and Space; Alt with a
/// row's access key activates that row (`nav key`). On a range, Left and Right move
/// the slider a step instead of leaving it.
enum PopupKeys {
    enum Action: Equatable {
        case close
        /// `nav MOVE`, sent `times` times.
        case nav(String, times: Int)
        /// `nav key KEY`.
        case key(String)
    }

    /// How many rows Page Up and Page Down move.
    static let page = 10

    static func action(keyval: guint, state: guint, focusedType: String?) -> Action? {
        let alt = state & GDK_MOD1_MASK.rawValue != 0
        let onRange = focusedType == "range"
        switch Int32(keyval) {
        case GDK_KEY_Escape: return .close
        case GDK_KEY_Down, GDK_KEY_KP_Down: return .nav("next", times: 1)
        case GDK_KEY_Up, GDK_KEY_KP_Up: return .nav("prev", times: 1)
        case GDK_KEY_Page_Down, GDK_KEY_KP_Page_Down: return .nav("next", times: page)
        case GDK_KEY_Page_Up, GDK_KEY_KP_Page_Up: return .nav("prev", times: page)
        case GDK_KEY_Home, GDK_KEY_KP_Home: return .nav("first", times: 1)
        case GDK_KEY_End, GDK_KEY_KP_End: return .nav("last", times: 1)
        case GDK_KEY_Left, GDK_KEY_KP_Left: return .nav(onRange ? "decrease" : "left", times: 1)
        case GDK_KEY_Right, GDK_KEY_KP_Right: return .nav(onRange ? "increase" : "right", times: 1)
        case GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_space: return .nav("activate", times: 1)
        default:
            guard alt, let scalar = Unicode.Scalar(gdk_keyval_to_unicode(keyval)),
                scalar.properties.isAlphabetic || ("0"..."9").contains(scalar), scalar.isASCII
            else { return nil }
            return .key(String(scalar).lowercased())
        }
    }

    /// The text a key starts a search with: a printable character other than a
    /// space (Space activates), typed without Control or Alt; nil for any other key.
    static func searchStart(keyval: guint, state: guint) -> String? {
        let held = GDK_CONTROL_MASK.rawValue | GDK_MOD1_MASK.rawValue | GDK_SUPER_MASK.rawValue
        guard state & held == 0, let scalar = Unicode.Scalar(gdk_keyval_to_unicode(keyval)),
            scalar.value > 0x20, scalar.value != 0x7f, !(0x80..<0xa0).contains(scalar.value)
        else { return nil }
        return String(scalar)
    }
}
