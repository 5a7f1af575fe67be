/// One libyaml event reduced to what the loader needs, so that decoding code never
/// touches C memory whose lifetime ends with `yaml_event_delete`.
struct YAMLEvent {
    enum Kind {
        case documentStart
        case documentEnd
        case streamEnd
        case scalar
        case sequenceStart
        case sequenceEnd
        case mappingStart
        case mappingEnd
    }

    var kind: Kind
    var mark: SourceMark
    /// The scalar's text; empty for other kinds.
    var text: String = ""
    /// The node key this scalar spells, if any, found while its bytes were at hand.
    var key: NodeKey?
    /// A plain (unquoted, untagged) scalar. Only plain scalars can be booleans,
    /// numbers or null; quoting is how a user says "this is text".
    var isPlain: Bool = false

    /// A plain scalar that YAML reads as null: nothing at all, `~` or `null`.
    var isNull: Bool {
        guard kind == .scalar, isPlain else { return false }
        // By length first: every string value of every node is asked.
        switch text.utf8.count {
        case 0: return true
        case 1: return text == "~"
        case 4: return text == "null" || text == "Null" || text == "NULL"
        default: return false
        }
    }

    /// How an error message names this value after "got".
    var summary: String {
        switch kind {
        case .sequenceStart: return "a list"
        case .mappingStart: return "a mapping"
        case .scalar:
            if isNull { return "nothing" }
            return isPlain ? "'\(YAMLEvent.clip(text))'" : "a quoted string '\(YAMLEvent.clip(text))'"
        default: return "the end of a collection"
        }
    }

    /// Keeps messages on one readable line whatever the user pasted into a value.
    static func clip(_ text: String) -> String {
        var out = ""
        var count = 0
        for c in text.unicodeScalars {
            if count == 40 { return out + "…" }
            out.unicodeScalars.append(c.value < 0x20 ? " " : c)
            count += 1
        }
        return out
    }
}
