@testable import MenuCore

/// A deliberately simple reference for the model: nested nodes, recursion, linear
/// scans. The property tests check the fast model against it.
struct NaiveMenu {
    struct Node {
        var id: String
        var kind: NodeKind
        var parent: Int?
        var children: [Int] = []
        var exclusive = false
        var expanded = false
        var value: Value?
    }

    var nodes: [Node] = []
    var roots: [Int] = []

    init(_ specs: [NodeSpec]) {
        for s in specs { roots.append(add(s, parent: nil)) }
    }

    private mutating func add(_ s: NodeSpec, parent: Int?) -> Int {
        let i = nodes.count
        nodes.append(
            Node(
                id: s.id, kind: s.kind, parent: parent, exclusive: s.exclusive,
                expanded: s.kind.isExpandable && s.expanded, value: s.value ?? s.rule?.defaultValue))
        for c in s.children {
            let child = add(c, parent: i)
            nodes[i].children.append(child)
        }
        return i
    }

    func path(_ i: Int) -> String {
        var parts = [nodes[i].id]
        var p = nodes[i].parent
        while let q = p {
            parts.insert(nodes[q].id, at: 0)
            p = nodes[q].parent
        }
        return parts.joined(separator: "/")
    }

    func find(_ path: String) -> Int? { nodes.indices.first { self.path($0) == path } }

    func visible(from list: [Int]) -> [Int] {
        var out: [Int] = []
        func go(_ i: Int) {
            out.append(i)
            if nodes[i].kind.isExpandable && !nodes[i].expanded { return }
            for c in nodes[i].children { go(c) }
        }
        for r in list { go(r) }
        return out
    }

    var rows: [Int] { visible(from: roots) }

    func all(under i: Int) -> [Int] { [i] + nodes[i].children.flatMap { all(under: $0) } }

    mutating func open(_ i: Int) {
        if let p = nodes[i].parent, nodes[p].exclusive {
            for s in nodes[p].children where s != i { nodes[s].expanded = false }
        }
        nodes[i].expanded = true
    }

    mutating func openBelow(_ i: Int) {
        for d in all(under: i).dropFirst() where nodes[d].kind.isExpandable {
            let p = nodes[d].parent!
            if nodes[p].exclusive {
                let branches = nodes[p].children.filter { nodes[$0].kind.isExpandable }
                let chosen = branches.first { nodes[$0].expanded } ?? branches.first
                if chosen != d { continue }
            }
            open(d)
        }
    }

    mutating func closeBelow(_ i: Int) {
        for d in all(under: i) where nodes[d].kind.isExpandable { nodes[d].expanded = false }
    }
}
