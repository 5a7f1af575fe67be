import PropertyBased
import TestSupport
import Testing

@testable import MenuCore

/// Random trees and random operation sequences, checked step by step against
/// ``NaiveMenu``: visible rows, both row lookups, subtree rows, changed flags, and the
/// splices themselves.
@Suite struct MenuModelPropertyTests {
    /// Builds a forest from a list of numbers: each number picks a parent among the
    /// groups made so far (or a new top-level menu), a kind and flags. Shrinking the
    /// list shrinks the tree.
    static func specs(from shape: [Int]) -> [NodeSpec] {
        struct Draft {
            var id: String
            var kind: NodeKind
            var exclusive: Bool
            var expanded: Bool
            var children: [Int] = []
            var options: Int = 0
        }
        var drafts: [Draft] = []
        var roots: [Int] = []
        var groups: [Int] = []
        for (n, v) in shape.enumerated() {
            let kinds: [NodeKind] = [.group, .group, .group, .item, .toggle, .choice]
            let kind = kinds[(v / 7) % kinds.count]
            var d = Draft(id: "n\(n)", kind: kind, exclusive: (v / 50) % 3 == 0, expanded: (v / 200) % 2 == 0)
            if kind == .choice { d.options = 1 + (v / 11) % 3 }
            let i = drafts.count
            let slot = v % (groups.count + 1)
            if slot == 0 || groups.isEmpty {
                roots.append(i)
            } else {
                let parent = groups[slot - 1]
                // Loaded configs never have two branches open in an exclusive group.
                if drafts[parent].exclusive,
                    drafts[parent].children.contains(where: {
                        drafts[$0].expanded && drafts[$0].kind.isExpandable
                    })
                {
                    d.expanded = false
                }
                drafts[parent].children.append(i)
            }
            drafts.append(d)
            if kind == .group { groups.append(i) }
        }
        func build(_ i: Int) -> NodeSpec {
            let d = drafts[i]
            switch d.kind {
            case .choice:
                return MenuFixtures.choice(d.id, (0..<d.options).map { "o\($0)" })
            case .toggle:
                return MenuFixtures.toggle(d.id)
            case .item:
                return MenuFixtures.item(d.id)
            default:
                return MenuFixtures.group(
                    d.id, exclusive: d.exclusive, expanded: d.expanded, d.children.map(build))
            }
        }
        return roots.map(build)
    }

    struct Checker {
        let model: MenuModel
        var naive: NaiveMenu
        /// Naive node number → fast node number, matched by path.
        let fast: [Int]

        init(_ specs: [NodeSpec]) {
            model = MenuModel(config: MenuConfig(file: "p.yaml", menus: specs))
            naive = NaiveMenu(specs)
            let m = model
            let n = naive
            fast = n.nodes.indices.map { m.tree.node(at: n.path($0))! }
        }

        func paths(_ list: [Int]) -> [String] { list.map { naive.path($0) } }

        /// Applies one numbered operation to both models and compares the outcome.
        mutating func step(_ v: Int) throws {
            let target = (v / 16) % naive.nodes.count
            let path = naive.path(target)
            let recursive = (v / 4096) % 2 == 1
            let oldRows = naive.rows
            let oldFlags = naive.nodes.map(\.expanded)
            let oldValues = naive.nodes.map(\.value)
            var change = Change()
            let expandable = naive.nodes[target].kind.isExpandable
            do {
                switch v % 16 {
                case 0, 1, 2:
                    change = try model.expand(path, recursive: recursive)
                    if expandable {
                        naive.open(target)
                        if recursive { naive.openBelow(target) }
                    }
                case 3, 4:
                    change = try model.collapse(path, recursive: recursive)
                    if expandable {
                        naive.nodes[target].expanded = false
                        if recursive { naive.closeBelow(target) }
                    }
                case 5, 6, 7:
                    change = try model.toggle(path, recursive: recursive)
                    if expandable {
                        if naive.nodes[target].expanded {
                            naive.nodes[target].expanded = false
                            if recursive { naive.closeBelow(target) }
                        } else {
                            naive.open(target)
                            if recursive { naive.openBelow(target) }
                        }
                    } else if naive.nodes[target].kind == .toggle {
                        // A toggle node flips, as activating it does.
                        naive.nodes[target].value = .toggle(naive.nodes[target].value != .toggle(true))
                    }
                case 8:
                    change = try recursive ? model.expandAll() : model.expandAll(path)
                    if recursive {
                        for r in naive.roots {
                            if naive.nodes[r].kind.isExpandable { naive.open(r) }
                            naive.openBelow(r)
                        }
                    } else if expandable {
                        naive.open(target)
                        naive.openBelow(target)
                    }
                case 9:
                    change = try recursive ? model.collapseAll() : model.collapseAll(path)
                    for r in recursive ? naive.roots : (expandable ? [target] : []) { naive.closeBelow(r) }
                case 10, 11:
                    change = try model.expandTo(path)
                    var chain: [Int] = []
                    var p = naive.nodes[target].parent
                    while let q = p {
                        chain.insert(q, at: 0)
                        p = naive.nodes[q].parent
                    }
                    for q in chain { naive.open(q) }
                case 12, 13:
                    let kind = naive.nodes[target].kind
                    change = try model.activate(path).0
                    switch kind {
                    case .group, .choice:
                        if naive.nodes[target].expanded {
                            naive.nodes[target].expanded = false
                        } else {
                            naive.open(target)
                        }
                    case .toggle:
                        naive.nodes[target].value = .toggle(naive.nodes[target].value != .toggle(true))
                    case .option:
                        let c = naive.nodes[target].parent!
                        naive.nodes[c].value = .choice(naive.nodes[target].id)
                        naive.nodes[c].expanded = false
                    default: break
                    }
                case 14:
                    // A batch of three operations that fails at its end changes nothing.
                    let targets = (0..<3).map { naive.path((target + $0 * 7) % naive.nodes.count) }
                    change = try model.batch { m in
                        for t in targets { _ = try? m.toggle(t) }
                        throw MenuError.noSuchNode("stop")
                    }
                default:
                    // A batch that succeeds reports one change for all its operations.
                    let targets = (0..<3).map { (target + $0 * 5) % naive.nodes.count }
                    change = try model.batch { m in
                        for t in targets where naive.nodes[t].kind.isExpandable {
                            _ = try m.toggle(naive.path(t))
                        }
                    }
                    for t in targets where naive.nodes[t].kind.isExpandable {
                        if naive.nodes[t].expanded { naive.nodes[t].expanded = false } else { naive.open(t) }
                    }
                }
            } catch {
                // A refused operation must leave the model as it was; the naive model
                // was not touched, so the comparison below checks exactly that.
            }
            try compare(
                oldRows: oldRows, oldFlags: oldFlags, oldValues: oldValues, change: change,
                op: "\(v % 16) \(path)")
        }

        func compare(oldRows: [Int], oldFlags: [Bool], oldValues: [Value?], change: Change, op: String) throws
        {
            let rows = naive.rows
            let got = model.rows()
            #expect(got.map(\.path) == paths(rows), "rows after \(op)")
            #expect(model.rowCount == rows.count)
            for (r, n) in rows.enumerated() {
                #expect(model.node(atRow: r) == fast[n], "row \(r) after \(op)")
            }
            #expect(model.node(atRow: rows.count) == nil)
            for n in naive.nodes.indices {
                #expect(
                    model.rowIndex(of: fast[n]) == rows.firstIndex(of: n),
                    "row of \(naive.path(n)) after \(op)")
                #expect(
                    model.isExpanded(fast[n]) == naive.nodes[n].expanded || !naive.nodes[n].kind.isExpandable)
                #expect(model.value(of: fast[n]) == naive.nodes[n].value)
            }
            // Subtree rows of one node.
            let sub = naive.nodes.count / 2
            #expect(try model.rows(under: naive.path(sub)).map(\.path) == paths(naive.visible(from: [sub])))
            // The splices are the canonical ones and rebuild the new rows from the old.
            #expect(
                change.splices == RowDiff.splices(from: paths(oldRows), to: paths(rows)),
                "splices after \(op)")
            #expect(
                replay(change.splices, on: oldRows, new: rows) == rows,
                "splices do not rebuild the rows after \(op)")
            let flipped = naive.nodes.indices.filter { naive.nodes[$0].expanded != oldFlags[$0] }
            #expect(Set(model.paths(of: change.expansionChanged)) == Set(paths(flipped)), "flags after \(op)")
            let valued = naive.nodes.indices.filter { naive.nodes[$0].value != oldValues[$0] }
            #expect(Set(model.paths(of: change.valueChanged)) == Set(paths(valued)), "values after \(op)")
            #expect(
                change.expansionChanged == change.expansionChanged.sorted(), "flags ascending after \(op)")
            #expect(change.valueChanged == change.valueChanged.sorted(), "values ascending after \(op)")
        }
    }

    @Test func modelMatchesNaiveReference() async {
        await propertyCheck(
            count: 300,
            input: Gen.int(in: 0...100_000).array(of: 1...40), Gen.int(in: 0...1_000_000).array(of: 1...30)
        ) { shape, ops in
            var checker = Checker(Self.specs(from: shape))
            for v in ops { try checker.step(v) }
        }
    }

    @Test func stateRoundTripsThroughExport() async {
        await propertyCheck(
            count: 100,
            input: Gen.int(in: 0...100_000).array(of: 1...40), Gen.int(in: 0...1_000_000).array(of: 1...30)
        ) { shape, ops in
            var checker = Checker(Self.specs(from: shape))
            for v in ops { try checker.step(v) }
            let copy = MenuModel(config: MenuConfig(file: "p.yaml", menus: Self.specs(from: shape)))
            let (change, dropped) = copy.importState(checker.model.exportState())
            #expect(dropped.isEmpty)
            #expect(copy.tree() == checker.model.tree())
            // Import's splices rebuild the rows too.
            let old = MenuModel(config: MenuConfig(file: "p.yaml", menus: Self.specs(from: shape)))
                .rows().map(\.path)
            let new = copy.rows().map(\.path)
            #expect(replay(change.splices, on: old, new: new) == new)
        }
    }
}
