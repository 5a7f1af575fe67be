import ArgumentParser
import MenuCore
import MenuProtocol

/// A `--template`: literal text and `{field}` references, parsed once.
struct RowTemplate {
    enum Field: String, CaseIterable {
        case indent, arrow, title, value, path, depth, focused, type, state, icon, subtitle, index, label

        /// Every field is one line: a template prints a row per line.
        func text(_ row: RowRecord, focused: Bool) -> String {
            switch self {
            case .indent: return RowTree.indent(row)
            case .arrow: return RowTree.arrow(row)
            case .title: return InertText.oneLine(row.title)
            case .value: return InertText.oneLine(row.value)
            case .path: return row.path
            case .depth: return String(row.depth)
            // A mark rather than true/false, so that `{focused}{title}` reads well.
            case .focused: return focused ? "*" : ""
            case .type: return row.type
            case .state: return row.state
            case .icon: return InertText.oneLine(row.icon)
            case .subtitle: return InertText.oneLine(row.subtitle)
            case .index: return row.index.map(String.init) ?? ""
            case .label: return RowTree.label(row)
            }
        }
    }

    enum Segment {
        case literal(String)
        case field(Field)
    }

    var segments: [Segment] = []

    init(parsing text: String) throws {
        var literal = ""
        var rest = Substring(text)
        while let c = rest.first {
            if rest.hasPrefix("{{") || rest.hasPrefix("}}") {
                literal.append(c)
                rest = rest.dropFirst(2)
            } else if c == "{" {
                guard let close = rest.firstIndex(of: "}") else {
                    throw ValidationError("template: '{' without '}'")
                }
                let name = String(rest[rest.index(after: rest.startIndex)..<close])
                guard let field = Field(rawValue: name) else {
                    throw ValidationError(
                        "template: unknown field {\(name)}; fields: "
                            + Field.allCases.map(\.rawValue).joined(separator: ", "))
                }
                if !literal.isEmpty { segments.append(.literal(literal)) }
                literal = ""
                segments.append(.field(field))
                rest = rest[rest.index(after: close)...]
            } else {
                literal.append(c)
                rest = rest.dropFirst()
            }
        }
        if !literal.isEmpty { segments.append(.literal(literal)) }
    }

    func render(_ row: RowRecord, focused: Bool) -> String {
        segments.map {
            switch $0 {
            case .literal(let s): return s
            case .field(let f): return f.text(row, focused: focused)
            }
        }.joined()
    }
}
