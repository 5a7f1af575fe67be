import MenuCore

/// What an event from a tray does, as the command that does it: the tray acts only
/// through commands (``CommandCaller``), like any other client, on the node its
/// entry's key was found as.
enum TrayAction {
    /// A click on the entry of `key`: an item's `exec` runs and a toggle flips (`activate`),
    /// an option is picked, a range step is set. Nil for entries a click does
    /// nothing to (submenus, and labels that show a value).
    static func click(_ key: TrayEntryKey, in model: MenuModel) -> MenuCall? {
        switch key {
        case .node(let path):
            guard let n = model.tree.node(at: path) else { return nil }
            switch model.tree.kind(n) {
            case .item, .toggle, .option: return .activate(node: n)
            case .group, .choice, .range, .text, .date: return nil
            }
        case .rangeStep(let path, let value):
            return model.tree.node(at: path).map { .set(node: $0, value: value) }
        case .rangeDown(let path), .rangeUp(let path):
            guard let n = model.tree.node(at: path), let rule = model.tree.rule(n),
                let bounds = RangeBounds(rule: rule), case .number(let value)? = model.value(of: n)
            else { return nil }
            let step = key == .rangeDown(path: path) ? -TrayMenu.nudge(bounds) : TrayMenu.nudge(bounds)
            let next = min(max(value + step, bounds.min), bounds.max)
            return .set(node: n, value: Value.format(TrayMenu.decimal(next)))
        case .rangeValue, .question:
            return nil
        }
    }

    /// A submenu about to be shown (`AboutToShow`, `opened`): a `children-cmd`
    /// group's command runs again (``MenuCall/refresh(node:)``), so that a tray shows
    /// what it prints now. Nothing else: what a tray host shows or hides is the
    /// tray's own, and never opens or closes a group for the other clients, since
    /// hosts differ in what they tell (GTK's never says a menu closed).
    static func show(_ key: TrayEntryKey, in model: MenuModel) -> MenuCall? {
        guard case .node(let path) = key, let n = model.tree.node(at: path),
            model.childrenCommand(of: n) != nil
        else { return nil }
        return .refresh(node: n)
    }
}
