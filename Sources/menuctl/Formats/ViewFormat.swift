/// One way to print a ``MenuView``: a pure function from rows and focus to text,
/// without the final newline. `render` prints it once; `watch` prints it again on
/// every change, framed by ``watchRender(_:)``.
protocol ViewFormat {
    func render(_ view: MenuView) -> String

    /// What `watch` prints for one state, without the final newline. A reader of the
    /// stream must be able to tell where each state ends, so a format whose render
    /// spans lines says here how it is delimited.
    func watchRender(_ view: MenuView) -> String

    /// What `watch` prints, framed like a state, once each time the daemon cannot be
    /// reached; nil prints nothing. Bars show their last text until told otherwise, so
    /// theirs says the menu is away rather than leave a menu that no longer answers.
    func disconnectedRender(socket: String) -> String?

    /// Whether the format shows every node, open or not (`tree` rather than `rows`):
    /// a window manager's menu has a submenu for every group.
    var showsEveryNode: Bool { get }
}

extension ViewFormat {
    /// One-line formats (waybar, polybar, json) are their own delimiter: a line per state.
    func watchRender(_ view: MenuView) -> String { render(view) }

    func disconnectedRender(socket: String) -> String? { nil }

    var showsEveryNode: Bool { false }
}
