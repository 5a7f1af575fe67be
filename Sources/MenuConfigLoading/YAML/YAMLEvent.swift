import MenuCore

/// One libyaml event reduced to what the loader decides on. It holds no text, so
/// that passing events around never retains or releases anything: a scalar's text
/// stays in libyaml's event until the reader moves on, and the decoder asks the
/// reader for it (``YAMLEventReader/text``) only when it keeps it or reports it.
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
    /// A plain (unquoted, untagged) scalar. Only plain scalars can be booleans,
    /// numbers or null; quoting is how a user says "this is text".
    var isPlain = false
    /// A plain scalar that YAML reads as null: nothing at all, `~` or `null`.
    var isNull = false

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

    /// How an error message names a value that is not a scalar, after "got".
    var collectionSummary: String {
        switch kind {
        case .sequenceStart: return "a list"
        case .mappingStart: return "a mapping"
        default: return "the end of a collection"
        }
    }
}
