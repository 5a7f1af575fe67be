/// The paths of nodes that changed lately, made once each: a change names its nodes
/// by path, and a path over 15 bytes is an allocation each time it is made.
///
/// A few slots picked by the node's number, not a dictionary: a change looks its
/// nodes up twice (when it is made and when its records are written), and clicks
/// change the same few nodes again and again, so hashing would cost more than the
/// rare path made again after two nodes met in a slot.
struct ChangedPaths {
    private static var slotCount: Int { 64 }
    private var nodes = [Int](repeating: -1, count: slotCount)
    private var paths = [String](repeating: "", count: slotCount)

    subscript(node: Int) -> String? {
        let slot = node & (Self.slotCount - 1)
        return nodes[slot] == node ? paths[slot] : nil
    }

    mutating func keep(_ path: String, for node: Int) {
        let slot = node & (Self.slotCount - 1)
        nodes[slot] = node
        paths[slot] = path
    }

    mutating func forget(_ node: Int) {
        let slot = node & (Self.slotCount - 1)
        guard nodes[slot] == node else { return }
        nodes[slot] = -1
        paths[slot] = ""
    }

    mutating func removeAll() {
        self = ChangedPaths()
    }
}
