import MenuCore

/// The focus part: the cursors that `nav` moves and every view shows, one per
/// top-level menu (``FocusCursors``), kept against the menu being served. A bar, a
/// launcher, a key binding and the tray's scroll wheel all move these same cursors.
///
/// They are not part of the model's undo journal, which is why `nav` and `focus`
/// cannot be batched. They hold node numbers, renumbered with the other parts'
/// (``renumber(_:)``), and each is made valid again when it is read.
final class SharedFocus {
    private var cursors = FocusCursors()
    private let menu: ServedMenu

    init(menu: ServedMenu) { self.menu = menu }

    /// The focus that a view of the whole menu shows: the current menu's. After any
    /// move the moved menu is the current one, so comparing with this tells whether
    /// any view's focus changed.
    var shown: FocusCursors.Focus? { try? cursors.focus(in: nil, model: menu.model) }

    /// The focus of `topLevel` (a top-level menu's id), or of the current menu.
    func focus(in topLevel: String?) throws(MenuError) -> FocusCursors.Focus {
        try cursors.focus(in: topLevel, model: menu.model)
    }

    /// Focuses node `n`, opening its ancestors.
    func focus(on n: Int) throws(MenuError) -> FocusCursors.Outcome {
        try cursors.focus(on: n, model: menu.model)
    }

    /// Focuses node `n` and opens it (``FocusCursors/open(_:model:)``).
    func open(_ n: Int) throws(MenuError) -> FocusCursors.Outcome {
        try cursors.open(n, model: menu.model)
    }

    /// The focused nodes, which a splice carries where their paths are again.
    var nodes: [Int] { cursors.focusedNodes }

    /// The cursors, after the model's nodes moved.
    func renumber(_ number: Renumbering) { cursors.renumber(number) }

    /// Activates the focused group's child with access key `key`
    /// (``FocusCursors/activate(key:in:model:)``).
    func activate(key: Character, in topLevel: String?) throws(MenuError) -> FocusCursors.Outcome {
        try cursors.activate(key: key, in: topLevel, model: menu.model)
    }

    /// Moves a cursor, or acts on the node it is on.
    func move(_ move: NavMove, in topLevel: String?) throws(MenuError) -> FocusCursors.Outcome {
        try cursors.move(move, in: topLevel, model: menu.model)
    }
}
