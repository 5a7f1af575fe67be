/// One node as a view shows it. Views render these and never compute state
/// themselves, which keeps every client in agreement with the daemon.
public struct Row: Sendable, Hashable {
    /// The global visible row number, or nil when an ancestor is collapsed.
    public var index: Int?
    public var path: String
    /// 0 for a top-level menu.
    public var depth: Int
    public var kind: NodeKind
    /// The title with its placeholders filled in.
    public var title: String
    public var subtitle: String?
    public var icon: String?
    /// For expandable nodes only.
    public var expanded: Bool?
    /// The canonical value text, for value nodes only.
    public var value: String?
    /// For a choice's options: whether it is the picked one.
    public var selected: Bool?
    /// 0-based position among its siblings.
    public var position: Int
    public var siblings: Int
    /// The number of children, for expandable nodes.
    public var children: Int
    public var exec: String?
    /// For range nodes: their bounds and step, which a bar needs to show a percentage.
    public var bounds: RangeBounds?
    /// For a node that reads its value from the system: the value shown is not known
    /// to be the system's (not read yet, or the last reading was refused).
    public var stale = false
    /// The node's access key, lowercase (MenuTree+Keys.swift); nil when it has none.
    public var key: Character? = nil
    /// For a stale node: its source's last error and when, when the daemon said.
    public var staleReason: StaleReason? = nil
}
