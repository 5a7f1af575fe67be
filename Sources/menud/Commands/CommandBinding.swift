import MenuProtocol

/// Binds every ``CommandName`` to its handler: an exhaustive `switch`, so that a
/// command of the catalog cannot be left without one, and none is found by its
/// spelling.
enum CommandBinding {
    static func action(of name: CommandName) -> Command.Action {
        switch name {
        case .rows: ModelCommands.rows
        case .tree: ModelCommands.tree
        case .get: ModelCommands.get
        case .row: ModelCommands.row
        case .find: ModelCommands.find
        case .expand: ModelCommands.expand
        case .collapse: ModelCommands.collapse
        case .toggle: ModelCommands.toggle
        case .expandAll: ModelCommands.expandAll
        case .collapseAll: ModelCommands.collapseAll
        case .expandTo: ModelCommands.expandTo
        case .set: ModelCommands.set
        case .step: ModelCommands.step
        case .activate: ModelCommands.activate
        case .nav: FocusCommands.nav
        case .focus: FocusCommands.focus
        case .open: FocusCommands.open
        case .focused: FocusCommands.focused
        case .ping: ServerCommands.ping
        case .version: ServerCommands.version
        case .help: ServerCommands.help
        case .commands: ServerCommands.commands
        case .close: ServerCommands.close
        case .subscribe: ServerCommands.subscribe
        case .save: ServerCommands.save
        case .refresh: ServerCommands.refresh
        case .reload: ServerCommands.reload
        case .begin: .beginBatch
        case .end: .endBatch
        }
    }
}
