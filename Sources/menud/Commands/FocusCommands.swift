import MenuCore
import MenuProtocol

/// The commands of the focus cursors (``FocusCursors``): the daemon keeps one cursor
/// per top-level menu so that every view shows, and every key binding or scroll
/// wheel moves, the same focus. Their replies start with a `focus` record.
enum FocusCommands {
    /// A `key` or `activate` move activates the focused node, as `activate` does.
    static func nav(
        _ invocation: Invocation, _ focus: SharedFocus, _ menu: ServedMenu,
        _ applications: ServedApplications,
        _ out: inout CommandOutput
    ) throws(ProtocolError) {
        let (move, top) = try navArguments(invocation)
        let before = focus.shown
        let model = menu.model
        let change = try ModelCommands.atomically(model) { () throws(ProtocolError) in
            let outcome = try ModelCommands.model { () throws(MenuError) in
                switch move {
                case .move(let move): try focus.move(move, in: top)
                case .key(let key): try focus.activate(key: key, in: top)
                }
            }
            report(outcome.focus, movedFrom: before, into: &out)
            if let (n, path, activation) = outcome.activation {
                try ModelCommands.report(
                    n, path, activation, model: model, applications: applications, into: &out)
            }
        }
        out.record(change, in: model)
    }

    static func focus(
        _ invocation: Invocation, _ focus: SharedFocus, _ menu: ServedMenu, _ out: inout CommandOutput
    )
        throws(ProtocolError)
    {
        let n = try ModelCommands.node(invocation, in: menu.model)
        let before = focus.shown
        let outcome = try ModelCommands.model { () throws(MenuError) in
            try focus.focus(on: n)
        }
        report(outcome.focus, movedFrom: before, into: &out)
        out.record(outcome.change, in: menu.model)
    }

    /// The hosts showing the opened menu are asked to show it (``EventHub/show(menu:)``).
    static func open(
        _ invocation: Invocation, _ focus: SharedFocus, _ menu: ServedMenu, _ events: EventHub,
        _ out: inout CommandOutput
    ) throws(ProtocolError) {
        let n = try ModelCommands.node(invocation, in: menu.model)
        let before = focus.shown
        let outcome = try ModelCommands.model { () throws(MenuError) in
            try focus.open(n)
        }
        report(outcome.focus, movedFrom: before, into: &out)
        out.record(outcome.change, in: menu.model)
        events.show(menu: outcome.focus.menu)
    }

    static func focused(_ invocation: Invocation, _ focus: SharedFocus, _ out: inout CommandOutput)
        throws(ProtocolError)
    {
        let found = try ModelCommands.model { () throws(MenuError) in
            try focus.focus(in: invocation.path)
        }
        out.reply.record(fields(found))
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
