import MenuProtocol

/// Binds every ``CommandName`` to its handler: an exhaustive `switch`, so that a
/// command of the catalog cannot be left without one, and none is found by its
/// spelling. Each row hands its handler the parts of the service it names, and
/// nothing else: a model command gets the served menu, `nav` the focus, the menu
/// and the launcher; `refresh` and `reload` get the service's step that does them.
enum CommandBinding {
    static func action(of name: CommandName) -> Command.Action {
        switch name {
        case .rows: .run { i, s, o throws(ProtocolError) in try ModelCommands.rows(i, s.menu, &o) }
        case .tree: .run { i, s, o throws(ProtocolError) in try ModelCommands.tree(i, s.menu, &o) }
        case .get: .run { i, s, o throws(ProtocolError) in try ModelCommands.get(i, s.menu, &o) }
        case .row: .run { i, s, o throws(ProtocolError) in try ModelCommands.row(i, s.menu, &o) }
        case .find: .deferred { i, s in ModelCommands.find(i, s.menu, s.loop) }
        case .expand: .run { i, s, o throws(ProtocolError) in try ModelCommands.expand(i, s.menu, &o) }
        case .collapse: .run { i, s, o throws(ProtocolError) in try ModelCommands.collapse(i, s.menu, &o) }
        case .toggle: .run { i, s, o throws(ProtocolError) in try ModelCommands.toggle(i, s.menu, &o) }
        case .expandAll: .run { i, s, o throws(ProtocolError) in try ModelCommands.expandAll(i, s.menu, &o) }
        case .collapseAll:
            .run { i, s, o throws(ProtocolError) in try ModelCommands.collapseAll(i, s.menu, &o) }
        case .expandTo: .run { i, s, o throws(ProtocolError) in try ModelCommands.expandTo(i, s.menu, &o) }
        case .set: .run { i, s, o throws(ProtocolError) in try ModelCommands.set(i, s.menu, &o) }
        case .step: .run { i, s, o throws(ProtocolError) in try ModelCommands.step(i, s.menu, &o) }
        case .activate:
            .run { i, s, o throws(ProtocolError) in try ModelCommands.activate(i, s.menu, s.applications, &o)
            }
        case .nav:
            .run { i, s, o throws(ProtocolError) in
                try FocusCommands.nav(i, s.focus, s.menu, s.applications, &o)
            }
        case .focus: .run { i, s, o throws(ProtocolError) in try FocusCommands.focus(i, s.focus, s.menu, &o) }
        case .open:
            .run { i, s, o throws(ProtocolError) in try FocusCommands.open(i, s.focus, s.menu, s.events, &o) }
        case .focused: .run { i, s, o throws(ProtocolError) in try FocusCommands.focused(i, s.focus, &o) }
        case .ping: ServerCommands.ping
        case .version: ServerCommands.version
        case .help: ServerCommands.help
        case .commands: ServerCommands.commands
        case .close: ServerCommands.close
        case .subscribe: ServerCommands.subscribe
        case .save: .deferred { _, s in ServerCommands.save(s.persistence) }
        case .refresh: .deferred { i, s in ServerCommands.refresh(i, s.menu, s.refreshGroup) }
        case .reload: .deferred { _, s in ServerCommands.reload(s.reload(because:)) }
        case .begin: .beginBatch
        case .end: .endBatch
        }
    }
}
