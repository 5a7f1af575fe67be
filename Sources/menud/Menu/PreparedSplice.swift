import MenuCore

/// A refresh's new children spliced into a copy of the model on a pool thread: with
/// thousands of changed nodes the splice is tens of milliseconds of work that the
/// loop's clients would otherwise wait for. The loop adopts the copy if its model is
/// still at ``revision``, and the old state goes back to the pool to be freed, with
/// the children the refresh replaced: freeing thousands of nodes takes a millisecond.
///
/// Handed from the loop to one pool thread and back, never used by both at once.
final class PreparedSplice: @unchecked Sendable {
    let revision: Int
    private var model: MenuModel?
    private let group: Int
    private let children: [NodeSpec]
    private let filling: @Sendable (String) -> [NodeSpec]
    private let provided: [ChildrenSource: [NodeSpec]]
    private var replaced: LoadedChildren?
    /// Set on the pool thread; nil when the group is gone from the copy.
    private(set) var result: (change: Change, dropped: [DroppedState])?

    init(
        of model: MenuModel, group: Int, children: [NodeSpec], loaded: [String: LoadedChildren],
        provided: [ChildrenSource: [NodeSpec]], replaced: consuming LoadedChildren?
    ) {
        self.model = model.copy()
        revision = model.revision
        self.group = group
        self.children = children
        filling = MenuService.filling(loaded)
        self.provided = provided
        self.replaced = replaced
    }

    /// On the pool thread: the splice ``MenuService/spliceLoadedChildren(_:)`` makes
    /// for one group. The copy is numbered as the model it was made of.
    func run() {
        result = model?.replaceChildren(
            of: group, with: children, filling: filling, provided: provided)
    }

    /// On the loop: `model` takes the spliced state, and this the old one.
    func adopt(into model: MenuModel) {
        if let prepared = self.model { model.exchangeState(with: prepared) }
    }

    /// On a pool thread: frees what this holds.
    func free() {
        model = nil
        replaced = nil
        result = nil
    }
}
