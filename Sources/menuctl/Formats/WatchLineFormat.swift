import MenuCore
import MenuProtocol

/// What `watch` prints without `--format`: its original one-line form, kept for the
/// scripts written against it. The visible titles joined by ` | ` (a value the title
/// does not show in brackets), or with `--json` the rows as `menuctl --json rows`
/// prints them. A state is one line, so a title's newline or tab is a space.
struct WatchLineFormat: ViewFormat {
    var json: Bool

    func render(_ view: MenuView) -> String {
        if json { return RowJSON.array(view.rows) }
        return view.rows.map { row in
            InertText.oneLine(
                row.value.isEmpty || row.title.contains(row.value) ? row.title : "\(row.title) [\(row.value)]"
            )
        }.joined(separator: " | ")
    }
}
