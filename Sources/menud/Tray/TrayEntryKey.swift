/// What one dbusmenu entry stands for: a node of the menu, or one of the entries a
/// range is shown with. Entries keep their dbusmenu id across layouts by this key
/// (``TrayEntryIDs``), and a click is resolved through it against the model as it
/// is then, so an entry of a node that a reload removed is refused, not guessed.
enum TrayEntryKey: Hashable {
    case node(path: String)
    /// A range's radio entry for one of its steps.
    case rangeStep(path: String, value: String)
    /// A range's − and + entries, when it has too many steps for one entry each.
    case rangeDown(path: String)
    case rangeUp(path: String)
    /// The label between them, which shows the value.
    case rangeValue(path: String)
    /// A `confirm:` item's question, the label above its Yes and No.
    case question(path: String)

    var path: String {
        switch self {
        case .node(let p), .rangeStep(let p, _), .rangeDown(let p), .rangeUp(let p), .rangeValue(let p),
            .question(let p):
            return p
        }
    }
}
