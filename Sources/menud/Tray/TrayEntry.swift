import MenuBus

/// One entry of a tray menu, as built from the model's rows (``TrayMenu``): its text
/// and state, and its entries when it is a submenu.
struct TrayEntry {
    enum Toggle: Equatable {
        case checkmark(on: Bool)
        case radio(on: Bool)
    }

    var key: TrayEntryKey
    /// The text as the menu has it; escaped only when sent.
    var label: String
    var icon: String?
    /// The node's access key, which the label marks as its mnemonic.
    var mnemonic: Character?
    var toggle: Toggle?
    var enabled = true
    var isSubmenu = false
    var children: [TrayEntry] = []

    init(key: TrayEntryKey, label: String, icon: String? = nil) {
        self.key = key
        self.label = label
        self.icon = icon
    }

    /// Its dbusmenu properties, leaving out those at their default.
    var properties: [(String, BusValue)] {
        var out: [(String, BusValue)] = [("label", .string(TrayLabel.menuLabel(label, mnemonic: mnemonic)))]
        if !enabled { out.append(("enabled", .bool(false))) }
        if let icon, !icon.isEmpty { out.append(("icon-name", .string(icon))) }
        switch toggle {
        case .checkmark(let on):
            out += [("toggle-type", .string("checkmark")), ("toggle-state", .int32(on ? 1 : 0))]
        case .radio(let on):
            out += [("toggle-type", .string("radio")), ("toggle-state", .int32(on ? 1 : 0))]
        case nil: break
        }
        if isSubmenu { out.append(("children-display", .string("submenu"))) }
        return out
    }

    /// Whether the two have the same properties (their entries aside).
    func showsTheSame(as other: TrayEntry) -> Bool {
        label == other.label && mnemonic == other.mnemonic && icon == other.icon && toggle == other.toggle
            && enabled == other.enabled
            && isSubmenu == other.isSubmenu
    }
}
