/// An item with `confirm:` asks before it runs its command, with the accordion's own
/// rows: it is served as a group holding two items, `yes` and `no`. Activating it
/// opens the question; while open, its row's title is the question. `yes` runs the
/// item's command and closes the question, `no` only closes it.
///
/// Being ordinary rows in the model, the answers need nothing of a front end: every
/// view that can open a group and activate an item (rows, launchers, bars, a
/// script) can confirm, and the daemon never runs such a command from one activation.
extension NodeSpec {
    /// The answers' ids, in their order under the item.
    public static let yesID = "yes"
    public static let noID = "no"

    /// The two rows under a confirming item, placed where the item's `confirm:` is.
    static func answers(mark: SourceMark) -> [NodeSpec] {
        [
            NodeSpec(id: yesID, kind: .item, title: TitleTemplate(literal: "Yes"), mark: mark),
            NodeSpec(id: noID, kind: .item, title: TitleTemplate(literal: "No"), mark: mark),
        ]
    }
}

extension MenuTree {
    /// Whether node `i` is an item that asks first.
    public func isConfirmation(_ i: Int) -> Bool { confirms[i] != nil }

    /// The question node `i` asks, or nil when it asks none. `confirm: true` asks
    /// the title with a question mark.
    func question(of i: Int, title: String) -> String? {
        guard let question = confirms[i] else { return nil }
        if !question.isEmpty { return question }
        return title.hasSuffix("?") ? title : title + "?"
    }

    /// The confirmation an answer belongs to, and whether the answer is yes; nil for
    /// any other node.
    func answer(_ i: Int) -> (confirmation: Int, yes: Bool)? {
        guard let p = parent(i), confirms[p] != nil else { return nil }
        return (p, i == p + 1)
    }

    /// Turns item `i`, just finished by the decoder with nothing after it, into a
    /// confirmation: a group with the two answers as its children.
    package mutating func makeConfirmation(_ i: Int, question: String, mark: SourceMark) {
        kinds[i] = .group
        confirms[i] = question
        let depth = Int(depths[i]) + 1
        for (position, answer) in NodeSpec.answers(mark: mark).enumerated() {
            let j = append(parent: i, depth: depth, position: position, mark: mark)
            ids[j] = answer.id
            setTitle(j, answer.title)
        }
        close(i, childCount: 2)
    }
}
