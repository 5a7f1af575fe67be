import PropertyBased
import TestSupport
import Testing

@testable import MenuCore

/// ``MenuModel/replaceChildren(of:with:filling:)`` against the way it replaces:
/// building a model from the config with the group's new children filled in and
/// carrying the state over (``MenuModel/carryState(into:)``). Both must agree on
/// everything a client can see, on the change they report, and on every later
/// operation.
@Suite struct SpliceChildrenPropertyTests {
    /// What a nested `children-cmd` group gets: the "Loading…" row for some paths,
    /// an output with a value and a reference to it for others.
    static func filling(_ path: String) -> [NodeSpec] {
        guard path.utf8.count % 2 == 1 else { return [.loadingRow] }
        return [
            MenuFixtures.toggle("t", on: true),
            NodeSpec(id: "r", kind: .item, title: TitleTemplate(parsing: "t is {\(path)/t}")),
        ]
    }

    /// The specs with `edit` applied to the node at `path`.
    static func editing(_ specs: [NodeSpec], _ path: String, _ edit: (inout NodeSpec) -> Void) -> [NodeSpec] {
        var specs = specs
        let ids = path.split(separator: "/").map(String.init)
        func walk(_ list: inout [NodeSpec], _ rest: ArraySlice<String>) {
            guard let k = list.firstIndex(where: { $0.id == rest.first }) else { return }
            if rest.count == 1 { edit(&list[k]) } else { walk(&list[k].children, rest.dropFirst()) }
        }
        walk(&specs, ids[...])
        return specs
    }

    /// Every node's number, in tree order: the slots left as room for a group's
    /// children (MenuTree+Vacancy.swift) are none.
    static func nodes(_ model: MenuModel) -> [Int] {
        (0..<model.tree.count).filter { !model.tree.isVacant($0) }
    }

    /// Every node's path, in tree order.
    static func paths(_ model: MenuModel) -> [String] { nodes(model).map { model.tree.path($0) } }

    /// A random group's new children: a random forest whose groups are sometimes
    /// `children-cmd` groups themselves, with a templated row reading one of its
    /// values and one reading a value outside.
    static func children(from shape: [Int], outside: String?) -> [NodeSpec] {
        var specs = MenuModelPropertyTests.specs(from: shape)
        func mark(_ list: inout [NodeSpec], _ salt: Int) {
            for k in list.indices where list[k].kind == .group {
                if (salt + k) % 4 == 0 { list[k].childrenCommand = "cmd \(list[k].id)" }
                mark(&list[k].children, salt + k + 1)
            }
        }
        mark(&specs, shape.first ?? 0)
        if let toggle = specs.first(where: { $0.kind == .toggle }) {
            specs.append(
                NodeSpec(
                    id: "reads-in", kind: .item, title: TitleTemplate(parsing: "in {GROUP/\(toggle.id)}")))
        }
        if let outside {
            specs.append(
                NodeSpec(id: "reads-out", kind: .item, title: TitleTemplate(parsing: "out {\(outside)}")))
        }
        return specs
    }

    /// One random operation, by path, on `model`; the change it reported, or nil
    /// when refused.
    static func apply(_ v: Int, to model: MenuModel) -> Change? {
        let nodes = nodes(model)
        let path = model.tree.path(nodes[(v / 8) % nodes.count])
        switch v % 8 {
        case 0, 1: return try? model.toggle(path)
        case 2: return try? model.expand(path, recursive: true)
        case 3: return try? model.collapse(path)
        case 4: return try? model.expandTo(path)
        case 5, 6: return try? model.activate(path).0
        default: return try? model.set(path, (v / 64) % 2 == 0 ? "on" : "off")
        }
    }

    struct Case {
        var specs: [NodeSpec]
        var group: String
        var children: [NodeSpec]
    }

    /// A random menu with one `children-cmd` group among its groups (a top-level one
    /// added for menus with none), and new children for it.
    static func makeCase(shape: [Int], childShape: [Int], pick: Int) -> Case {
        var specs = MenuModelPropertyTests.specs(from: shape)
        specs.append(MenuFixtures.group("dyn", [MenuFixtures.item("old")]))
        let model = MenuModel(config: MenuConfig(file: "p.yaml", menus: specs))
        let groups = nodes(model).filter { model.tree.kind($0) == .group }
        let group = model.tree.path(groups[pick % groups.count])
        specs = editing(specs, group) { $0.childrenCommand = "list" }
        // A top-level row that reads a value the new children may have.
        specs.append(
            NodeSpec(
                id: "watch", kind: .item, title: TitleTemplate(parsing: "{\(group)/n0} {\(group)/n1}")))
        let values = nodes(model).filter { model.tree.rule($0) != nil }.map { model.tree.path($0) }
        let outside = values.isEmpty ? nil : values[pick % values.count]
        var children = children(from: childShape, outside: outside)
        for k in children.indices {
            children[k].title = TitleTemplate(
                segments: children[k].title.segments.map {
                    if case .reference(let p) = $0 { return .reference(p.replacing("GROUP", with: group)) }
                    return $0
                })
        }
        return Case(specs: specs, group: group, children: children)
    }

    /// Checks the spliced model against the rebuilt one, node by node. Node numbers
    /// may differ by the room each keeps for children-cmd groups, so nodes are
    /// paired in tree order and compared by what they are.
    static func compare(_ spliced: MenuModel, _ rebuilt: MenuModel, _ gone: [String]) throws {
        #expect(spliced.tree() == rebuilt.tree())
        #expect(spliced.rowCount == rebuilt.rowCount)
        #expect(spliced.nodeCount == rebuilt.nodeCount)
        #expect(spliced.childrenCommands == rebuilt.childrenCommands)
        let splicedNodes = nodes(spliced)
        let rebuiltNodes = nodes(rebuilt)
        #expect(splicedNodes.count == rebuiltNodes.count)
        #expect(splicedNodes.count == spliced.nodeCount)
        func path(_ model: MenuModel, _ i: Int?) -> String? { i.map { model.tree.path($0) } }
        func size(_ model: MenuModel, _ i: Int) -> Int {
            model.tree.descendants(i).filter { !model.tree.isVacant($0) }.count
        }
        for (s, r) in zip(splicedNodes, rebuiltNodes) {
            let p = rebuilt.tree.path(r)
            #expect(spliced.tree.path(s) == p)
            #expect(spliced.tree.node(at: p) == s, "lookup of \(p)")
            #expect(path(spliced, spliced.tree.parent(s)) == path(rebuilt, rebuilt.tree.parent(r)))
            #expect(size(spliced, s) == size(rebuilt, r))
            #expect(spliced.tree.depth(s) == rebuilt.tree.depth(r))
            #expect(spliced.rowIndex(of: s) == rebuilt.rowIndex(of: r))
            #expect(
                Set(spliced.readers(of: s).map { spliced.tree.path($0) })
                    == Set(rebuilt.readers(of: r).map { rebuilt.tree.path($0) }), "readers of \(p)")
        }
        for r in 0...rebuilt.rowCount {
            #expect(path(spliced, spliced.node(atRow: r)) == path(rebuilt, rebuilt.node(atRow: r)))
        }
        for p in gone { #expect(spliced.tree.node(at: p) == nil, "\(p) is gone") }
        // The search index followed the splice as it would be built from scratch, and
        // finds the same nodes in the same order.
        #expect(FindTests.sameEntries(spliced.core.search, SearchIndex(tree: spliced.tree)))
        for query in ["t", "n0", "r", "dyn", "watch"] {
            func found(_ model: MenuModel) throws -> [String] {
                try model.find(query, limit: 50).map {
                    "\(model.tree.path($0.node)) \($0.score) \($0.positions)"
                }
            }
            #expect(try found(spliced) == found(rebuilt), "find \(query)")
        }
        #expect(
            spliced.tree.topLevel.map { spliced.tree.path($0) }
                == rebuilt.tree.topLevel.map { rebuilt.tree.path($0) })
    }

    /// Splices `children` into `spliced` and rebuilds `rebuilt` with them, from
    /// models in the same state; checks that both agree, and returns the rebuilt
    /// model, which later operations go on with.
    static func spliceAndCompare(
        _ c: Case, _ spliced: MenuModel, _ rebuilt: MenuModel, expectChange: Bool = true
    ) throws -> MenuModel {
        let oldFullRows = spliced.rows()
        let oldRows = oldFullRows.map(\.path)
        let oldPaths = paths(spliced)
        // Every node's row kept with its version, as a view that showed them keeps them.
        var kept = KeptRows()
        for n in nodes(spliced) { _ = kept.row(of: n, in: spliced) }
        let config = MenuConfig(file: "p.yaml", menus: c.specs).fillingChildren {
            $0 == c.group ? c.children : filling($0)
        }
        let next = MenuModel(config: config)
        let (expected, expectedDropped) = rebuilt.carryState(into: next)
        let (change, dropped) = try spliced.replaceChildren(of: c.group, with: c.children, filling: filling)
        // Each numbered in its own model: the spliced tree may keep vacant slots that
        // a built one places elsewhere. The splice replaces the group's rows that
        // stay but show something else, which a reload's does not.
        let changed = changedRows(from: oldFullRows, to: next.rows(), under: c.group)
        #expect(
            change.splices
                == RowDiff.splices(from: oldRows, to: next.rows().map(\.path), replacing: changed))
        if changed.isEmpty { #expect(change.splices == expected.splices) }
        #expect(spliced.paths(of: change.expansionChanged) == next.paths(of: expected.expansionChanged))
        #expect(spliced.paths(of: change.valueChanged) == next.paths(of: expected.valueChanged))
        #expect(dropped == expectedDropped)
        let newRows = spliced.rows().map(\.path)
        #expect(replay(change.splices, on: oldRows, new: newRows) == newRows)
        let newPaths = Set(paths(next))
        try compare(spliced, next, oldPaths.filter { !newPaths.contains($0) })
        // What is kept and not marked stale is what the rows are now.
        for n in nodes(spliced) {
            var row = try spliced.get(spliced.tree.path(n))
            row.index = nil
            #expect(kept.row(of: n, in: spliced) == row, "row of \(row.path)")
        }
        return next
    }

    /// The rows below `group` in both lists that show the node otherwise: another
    /// kind, title, subtitle, icon, bounds or access key.
    static func changedRows(from old: [Row], to new: [Row], under group: String) -> Set<String> {
        func look(_ row: Row) -> [String] {
            [
                row.kind.rawValue, row.title, row.subtitle ?? "-", row.icon ?? "-",
                row.bounds.map { "\($0)" } ?? "-", row.key.map(String.init) ?? "-",
            ]
        }
        var before: [String: [String]] = [:]
        for row in old where row.path.hasPrefix(group + "/") { before[row.path] = look(row) }
        return Set(new.filter { row in before[row.path].map { $0 != look(row) } ?? false }.map(\.path))
    }

    /// A change as a client is told it: nodes by path, since the two models may
    /// number them differently.
    static func told(_ change: Change?, in m: MenuModel) -> [String]? {
        guard let change else { return nil }
        return change.splices.map(\.description)
            + m.paths(of: change.expansionChanged).map { "expansion \($0)" }
            + m.paths(of: change.valueChanged).map { "value \($0)" }
    }

    /// Rows kept as a view keeps them: by node number, until the model says that
    /// the row changed (``MenuModel/rowVersion(of:)``) or the nodes were numbered
    /// anew (``MenuModel/numbering``).
    struct KeptRows {
        private var rows: [Int: (version: UInt32, row: Row)] = [:]
        private var numbering: Int?

        mutating func row(of n: Int, in model: MenuModel) -> Row {
            if numbering != model.numbering {
                rows = [:]
                numbering = model.numbering
            }
            if let kept = rows[n], kept.version == model.rowVersion(of: n) { return kept.row }
            let row = model.row(of: n)
            rows[n] = (model.rowVersion(of: n), row)
            return row
        }
    }

    @Test func splicingMatchesRebuildingWithTheStateCarried() async {
        await propertyCheck(
            count: 200,
            input: Gen.int(in: 0...100_000).array(of: 1...30), Gen.int(in: 0...100_000).array(of: 0...20),
            Gen.int(in: 0...1_000_000).array(of: 1...25)
        ) { shape, childShape, ops in
            let c = Self.makeCase(shape: shape, childShape: childShape, pick: ops[0])
            let spliced = MenuModel(config: MenuConfig(file: "p.yaml", menus: c.specs))
            var rebuilt = MenuModel(config: MenuConfig(file: "p.yaml", menus: c.specs))
            // Random state before, the group open or closed.
            for v in ops.dropFirst() {
                _ = Self.apply(v, to: spliced)
                _ = Self.apply(v, to: rebuilt)
            }
            if ops[0] % 3 != 0 {
                _ = try spliced.expandTo(c.group)
                _ = try spliced.expand(c.group)
                _ = try rebuilt.expandTo(c.group)
                _ = try rebuilt.expand(c.group)
            }
            rebuilt = try Self.spliceAndCompare(c, spliced, rebuilt)
            // Every later operation agrees too: the indexes behind them were spliced.
            for v in ops.reversed() {
                #expect(
                    Self.told(Self.apply(v, to: spliced), in: spliced)
                        == Self.told(Self.apply(v, to: rebuilt), in: rebuilt), "op \(v)")
                #expect(spliced.tree() == rebuilt.tree(), "after op \(v)")
            }
            // A second output for the same group, as when it is opened again.
            var again = c
            again.children = Self.children(from: childShape.reversed() + [ops[0]], outside: nil)
            rebuilt = try Self.spliceAndCompare(again, spliced, rebuilt)
            for v in ops.prefix(5) {
                #expect(
                    Self.told(Self.apply(v, to: spliced), in: spliced)
                        == Self.told(Self.apply(v, to: rebuilt), in: rebuilt), "op \(v)")
            }
            try Self.compare(spliced, rebuilt, [])
        }
    }

    /// A group near the end of a big menu, where few nodes move and the path index
    /// finds each of them rather than passing over its slots.
    @Test(arguments: [0, 1, 5, 40])
    func aGroupNearTheEndOfABigMenu(after: Int) throws {
        var dyn = MenuFixtures.group("dyn", [MenuFixtures.item("loading"), MenuFixtures.toggle("old")])
        dyn.childrenCommand = "list"
        let tail = MenuFixtures.group(
            "tail", expanded: true, (0..<after).map { MenuFixtures.group("t\($0)", [MenuFixtures.item("x")]) }
        )
        let specs =
            (0..<3000).map { MenuFixtures.item("i\($0)") } + [
                MenuFixtures.group("near", expanded: true, [dyn])
            ]
            + (after > 0 ? [tail] : [])
        for children in [
            Self.children(from: [7, 21, 350, 9, 210], outside: "near/dyn/old"),
            [MenuFixtures.item("one")], [],
        ] {
            let c = Case(specs: specs, group: "near/dyn", children: children)
            let spliced = MenuModel(config: MenuConfig(file: "p.yaml", menus: specs))
            let rebuilt = MenuModel(config: MenuConfig(file: "p.yaml", menus: specs))
            _ = try spliced.expand("near/dyn")
            _ = try rebuilt.expand("near/dyn")
            _ = try Self.spliceAndCompare(c, spliced, rebuilt)
        }
    }

    /// Nothing is kept below ``MenuTree/maxDepth``, as when filling specs, but
    /// the one row of a group there that says why it has no others.
    @Test(arguments: MenuTree.maxDepth - 3...MenuTree.maxDepth)
    func deepOutputIsCutAtTheMaximumDepth(depth: Int) throws {
        var chain = MenuFixtures.group("g\(depth)", expanded: true, [MenuFixtures.item("old")])
        chain.childrenCommand = "list"
        var path = "g\(depth)"
        for d in (0..<depth).reversed() {
            chain = MenuFixtures.group("g\(d)", expanded: true, [chain])
            path = "g\(d)/" + path
        }
        let specs = [chain, MenuFixtures.item("after")]
        let deep = MenuFixtures.group(
            "a", expanded: true,
            [MenuFixtures.group("b", expanded: true, [MenuFixtures.group("c", [MenuFixtures.toggle("d")])])])
        let c = Case(specs: specs, group: path, children: [deep, MenuFixtures.item("e")])
        // The daemon's models are built from filled configs, which have no node below
        // the maximum depth either.
        let config = MenuConfig(file: "p.yaml", menus: specs).fillingChildren { _ in [.loadingRow] }
        let spliced = MenuModel(config: config)
        let rebuilt = MenuModel(config: config)
        _ = try Self.spliceAndCompare(c, spliced, rebuilt)
        let limit = MenuTree.maxDepth
        let depths = Self.nodes(spliced).map { spliced.tree.depth($0) }
        #expect(depths.filter { $0 <= limit }.max() == min(depth + 4, limit))
        let below = Self.nodes(spliced).filter { spliced.tree.depth($0) > limit }
        #expect(
            below.allSatisfy {
                spliced.tree.depth($0) == limit + 1 && spliced.tree.path($0).hasSuffix("/error")
            },
            "\(below.map { spliced.tree.path($0) })")
        #expect(below.isEmpty == (depth + 4 <= limit))
    }
}
