import ArgumentParser
import MenuCore
import MenuProtocol

/// Shell completion of node paths, asked of the running daemon when the user presses
/// Tab (swift-argument-parser's custom completion: the generated script runs
/// `menuctl ---completion …`). Each command offers the nodes it can act on: `toggle`
/// the groups and choices, `set` the value nodes, and so on. Without a daemon there is
/// nothing to offer, and nothing is printed.
enum PathCompletion {
    /// Which nodes a command's path argument takes.
    enum Nodes: Sendable {
        case any, expandable, values, ranges, activatable, menus

        func accepts(_ row: RowRecord) -> Bool {
            let kind = NodeKind(rawValue: row.type)
            switch self {
            case .any: return true
            case .expandable: return row.isExpandable
            case .values: return kind?.holdsValue == true
            case .ranges: return kind == .range
            case .activatable: return kind != .range && kind != .text && kind != .date
            case .menus: return row.depth == 0
            }
        }
    }

    static func paths(_ nodes: Nodes) -> CompletionKind {
        .custom { words, _, prefix in
            tree(words).filter { nodes.accepts($0) && $0.path.hasPrefix(prefix) }.map(\.path)
        }
    }

    /// `set`'s value, for the path written before it: `on`/`off` for a toggle, the
    /// option ids of a choice, the steps of a short range.
    static let values = CompletionKind.custom { words, index, prefix in
        guard index > 0, index <= words.count else { return [] }
        let path = unquoted(words[index - 1])
        let rows = tree(words)
        guard let node = rows.first(where: { $0.path == path }) else { return [] }
        let candidates: [String]
        switch NodeKind(rawValue: node.type) {
        case .toggle: candidates = ["on", "off"]
        case .choice:
            candidates = rows.filter { $0.type == NodeKind.option.rawValue && $0.path.hasPrefix(path + "/") }
                .map { String($0.path.dropFirst(path.count + 1)) }
        case .range:
            guard let bounds = node.bounds, bounds.step > 0, (bounds.max - bounds.min) / bounds.step <= 100
            else {
                return []
            }
            candidates = stride(from: bounds.min, through: bounds.max + bounds.step / 2, by: bounds.step)
                .filter { $0 <= bounds.max }.map(Value.format)
        default: candidates = node.value.isEmpty ? [] : [node.value]
        }
        return candidates.filter { $0.hasPrefix(prefix) }
    }

    /// Every node, from the daemon the command line names (`--socket`) or the default
    /// one; none when it does not answer within a second or two.
    private static func tree(_ words: [String]) -> [RowRecord] {
        let socket = DaemonSession.socketPath(explicit: socketOption(in: words))
        guard let replies = try? DaemonSession.exchange(["tree"], replies: 1, socket: socket, timeout: 2)
        else {
            return []
        }
        return replies[0].rowRecords
    }

    /// The `--socket` of the words typed so far, as the shell passes them (quotes kept).
    static func socketOption(in words: [String]) -> String? {
        for (i, word) in words.enumerated() {
            if word == "--socket", i + 1 < words.count { return unquoted(words[i + 1]) }
            if word.hasPrefix("--socket=") { return unquoted(String(word.dropFirst("--socket=".count))) }
        }
        return nil
    }

    /// A shell word without the quotes around it, which is all a path or socket needs.
    static func unquoted(_ word: String) -> String {
        for quote in ["'", "\""] where word.count >= 2 && word.hasPrefix(quote) && word.hasSuffix(quote) {
            return String(word.dropFirst().dropLast())
        }
        return word
    }
}
