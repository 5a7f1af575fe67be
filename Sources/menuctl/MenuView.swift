import MenuClient
import MenuCore
import MenuProtocol

/// What a rendering shows, exactly as the daemon reported it: the visible rows of one
/// scope (or every node of it, for a format that reads the whole tree) and the focused
/// path. Renderers are pure functions of this; nothing here computes state.
struct MenuView {
    /// The subtree rendered, or nil for the whole menu.
    var scope: String?
    var rows: [RowRecord]
    /// The focused node's path; it may be outside `rows` when the scope is a subtree.
    var focus: String?

    var focusedRow: RowRecord? { rows.first { $0.path == focus } }

    /// The top-level menu whose focus cursor a scope shows.
    static func menu(of scope: String?) -> String? {
        scope.flatMap { $0.split(separator: "/").first.map(String.init) }
    }

    /// Asks the daemon for the rows of `scope` (every node of it with `everyNode`) and
    /// its focus, on one connection.
    static func fetch(_ scope: String?, everyNode: Bool = false, options: GlobalOptions) throws(ClientFailure)
        -> MenuView
    {
        let replies = try DaemonSession.requests(requests(scope, everyNode: everyNode), options: options)
        return MenuView(replies: replies[0], focus: replies[1], scope: scope)
    }

    /// The request lines a view of `scope` is made from: `rows` (or `tree`, for every
    /// node, open or not) then `focused`, whose replies ``init(replies:focus:scope:)``
    /// takes in that order.
    static func requests(_ scope: String?, everyNode: Bool = false) -> [String] {
        [
            ProtocolWords.request(everyNode ? "tree" : "rows", arguments: scope.map { [$0] } ?? []),
            ProtocolWords.request("focused", arguments: menu(of: scope).map { [$0] } ?? []),
        ]
    }

    /// A view from the replies to `rows` and `focused`.
    init(replies rows: ProtocolReply, focus: ProtocolReply, scope: String?) {
        self.scope = scope
        self.rows = rows.lines.compactMap { RowRecord(fields: ProtocolFields.fields(of: $0)) }
        self.focus =
            focus.lines.lazy.map { ProtocolFields.fields(of: $0) }
            .first { $0.count >= 3 && $0[0] == "focus" }?[2]
    }

    init(scope: String?, rows: [RowRecord], focus: String?) {
        self.scope = scope
        self.rows = rows
        self.focus = focus
    }
}
