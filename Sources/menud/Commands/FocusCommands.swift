import MenuCore
import MenuProtocol

/// The commands of the focus cursors (``FocusCursors``): the daemon keeps one cursor
/// per top-level menu so that every view shows, and every key binding or scroll
/// wheel moves, the same focus. Their replies start with a `focus` record.
enum FocusCommands {
    static let nav: Command.Action = .run { invocation, service, out throws(ProtocolError) in
        let (move, menu) = try navArguments(invocation)
        let before = service.focus.shown
        let change = try ModelCommands.atomically(service) { () throws(ProtocolError) in
            let outcome = try ModelCommands.model { () throws(MenuError) in
                switch move {
                case .move(let move): try service.focus.move(move, in: menu)
                case .key(let key): try service.focus.activate(key: key, in: menu)
                }
            }
            report(outcome.focus, movedFrom: before, into: &out)
            if let (path, activation) = outcome.activation {
                try ModelCommands.report(path, activation, service: service, into: &out)
            }
        }
        out.record(change, in: service.model)
    }

    static let focus: Command.Action = .run { invocation, service, out throws(ProtocolError) in
        let before = service.focus.shown
        let outcome = try ModelCommands.model { () throws(MenuError) in
            try service.focus.focus(on: invocation.arguments[0])
        }
        report(outcome.focus, movedFrom: before, into: &out)
        out.record(outcome.change, in: service.model)
    }

    static let open: Command.Action = .run { invocation, service, out throws(ProtocolError) in
        let before = service.focus.shown
        let outcome = try ModelCommands.model { () throws(MenuError) in
            try service.focus.open(invocation.arguments[0])
        }
        report(outcome.focus, movedFrom: before, into: &out)
        out.record(outcome.change, in: service.model)
        service.events.show(menu: outcome.focus.menu)
    }

    static let focused: Command.Action = .run { invocation, service, out throws(ProtocolError) in
        let focus = try ModelCommands.model { () throws(MenuError) in
            try service.focus.focus(in: invocation.path)
        }
        out.reply.record(fields(focus))
    }

    /// What `nav` does: a move, or `key KEY`.
    private enum Nav {
        case move(NavMove)
        case key(Character)
    }

    /// `nav`'s move and menu: `nav MOVE [MENU]` or `nav key KEY [MENU]`.
    private static func navArguments(_ invocation: Invocation) throws(ProtocolError) -> (Nav, String?) {
        let arguments = invocation.arguments
        if arguments[0] == "key" {
            guard arguments.count > 1 else {
                throw ProtocolError(.wrongArguments, "nav key needs a KEY; usage: nav key KEY [MENU]")
            }
            guard let key = MenuTree.keyByte(ofText: arguments[1]) else {
                throw ProtocolError(
                    .wrongArguments, "'\(arguments[1])' is not a key: a KEY is one letter or digit (a-z, 0-9)"
                )
            }
            return (.key(Character(Unicode.Scalar(key))), arguments.count > 2 ? arguments[2] : nil)
        }
        guard let move = NavMove(rawValue: arguments[0]) else {
            throw ProtocolError(
                .wrongArguments,
                "unknown move '\(arguments[0])': expected one of "
                    + NavMove.allCases.map(\.rawValue).joined(separator: ", ") + ", or key KEY")
        }
        guard arguments.count <= 2 else {
            throw ProtocolError(
                .wrongArguments, "nav \(move.rawValue) takes one MENU at most; usage: nav MOVE [MENU]")
        }
        return (.move(move), arguments.count > 1 ? arguments[1] : nil)
    }

    /// The `focus` record leads the reply; subscribers get it as an event only when
    /// the focus moved, since a move that changes no row must still redraw views (they
    /// show the focus) while a scroll past the end should not.
    private static func report(
        _ focus: FocusCursors.Focus, movedFrom before: FocusCursors.Focus?, into out: inout CommandOutput
    ) {
        if focus != before {
            out.announce(fields(focus), topics: .focus)
        } else {
            out.reply.record(fields(focus))
        }
    }

    /// `focus MENU PATH`: the top-level menu and the focused node.
    private static func fields(_ focus: FocusCursors.Focus) -> [String] { ["focus", focus.menu, focus.path] }
}
