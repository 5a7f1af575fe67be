import MenuProtocol

/// What `--search` offers in every launcher: the daemon's `find` answers for what
/// was typed, best first, so that `pick --search`, `rofi --search` and `menuctl
/// find` match and rank by one rule. Each answer is one line: where the node is and
/// its value ("Settings › Network › Wi-Fi: on"), without control characters
/// (``InertText/oneLine(_:)``), so a title cannot add a line or a row option.
enum SearchLines {
    /// Most answers offered.
    static let limit = 50

    /// `find`'s best answers for `query` within `scope` (the whole menu when nil).
    static func found(_ query: String, scope: String?, options: GlobalOptions) throws -> [FoundRecord] {
        let query = String(query.trimmingBlanks)
        guard !query.isEmpty else { return [] }
        // Within a subtree, enough are asked for that it keeps its share.
        let asked = scope == nil ? limit : 10_000
        let reply = try DaemonSession.send(
            [ProtocolWords.request("find", arguments: [query, String(asked)])], options: options)
        let inScope = reply.foundRecords.filter { found in
            guard let scope else { return true }
            return found.path == scope || found.path.hasPrefix(scope + "/")
        }
        return Array(inScope.prefix(limit))
    }

    /// An answer's line: its breadcrumbs, and its value where its title does not show it.
    static func line(_ found: FoundRecord) -> String {
        if !found.value.isEmpty, !found.title.contains(found.value) {
            return InertText.oneLine(found.breadcrumbs + "  [\(found.value)]")
        }
        return InertText.oneLine(found.breadcrumbs)
    }
}
