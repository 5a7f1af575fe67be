/// The name of every command of the protocol, in the order `help` lists them.
/// Each has its row in ``CommandCatalog`` and its handler in menud, both bound by
/// an exhaustive `switch`, so that a command cannot be listed and left unbound.
public enum CommandName: String, CaseIterable, Sendable {
    // Reading the menu.
    case rows
    case tree
    case get
    case row
    case find
    // Changing it.
    case expand
    case collapse
    case toggle
    case expandAll = "expand-all"
    case collapseAll = "collapse-all"
    case expandTo = "expand-to"
    case set
    case step
    case activate
    // Focus.
    case nav
    case focus
    case open
    case focused
    // The daemon and the connection.
    case ping
    case version
    case help
    case commands
    case close
    case subscribe
    case save
    case refresh
    case reload
    case begin
    case end
}
