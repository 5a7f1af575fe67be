/// `--template`: each row through the template, one per line.
struct TemplateFormat: RowPerLineFormat {
    var template: RowTemplate

    func render(_ view: MenuView) -> String {
        view.rows.map { template.render($0, focused: $0.path == view.focus) }.joined(separator: "\n")
    }
}
