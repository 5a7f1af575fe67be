/// A move of a focus cursor, as `nav` names it. They follow the WAI-ARIA tree view
/// and accordion keyboard model, so a bar's scroll wheel or a key binding can drive
/// the menu the way arrow keys drive a tree widget.
public enum NavMove: String, Sendable, CaseIterable {
    /// Down: the next visible row.
    case next
    /// Up: the previous visible row.
    case prev
    /// The parent node.
    case parent
    /// The first child, opening the node first when it is closed.
    case child
    /// Home: the first row.
    case first
    /// End: the last visible row.
    case last
    /// Opens the focused node.
    case expand
    /// Closes the focused node.
    case collapse
    /// Enter: does what selecting the focused node means (see ``MenuModel/activate(_:)``).
    case activate
    /// Left: closes an open node, else moves to its parent.
    case left
    /// Right: opens a closed node, else moves to its first child.
    case right
    /// Steps a focused range one step up (``MenuModel/step(node:by:)``); elsewhere
    /// does nothing, since a wheel sends it without knowing what is focused.
    case increase
    /// Steps a focused range one step down; elsewhere does nothing.
    case decrease
}
