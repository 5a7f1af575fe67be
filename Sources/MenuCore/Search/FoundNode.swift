/// One answer of ``MenuModel/find(_:limit:)``: a node, where the query matched it,
/// and how well.
public struct FoundNode: Sendable, Hashable {
    /// Which text of the node the query matched.
    public enum Field: String, Sendable {
        /// The title as shown, values included.
        case title
        /// The path: the ids from the top, joined by `/`.
        case path
        /// The titles of the node's groups and its own as shown, joined by ` › `: some
        /// word matched only in a group's title.
        case breadcrumbs
    }

    public let node: Int
    public let field: Field
    /// The matched scalars' offsets in ``field``'s text (0-based, Unicode scalars
    /// rather than bytes or characters, as fzf counts them), ascending.
    public let positions: [Int]
    /// fzf's score: higher is better. An exact match is ranked first whatever its score.
    public let score: Int
    /// Whether the title is the query, but for case and accents.
    public let exact: Bool
}
