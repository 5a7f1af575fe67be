import MenuCore

/// A scalar's text kept past the event it came in, for the checks that wait for
/// the whole node (`value:` is read by the node's type, which may come later).
struct YAMLScalar {
    var text: String
    var isPlain: Bool
    /// As the scalar's ``YAMLEvent/isNull``.
    var isNull: Bool

    /// How an error message names this value after "got".
    var summary: String {
        if isNull { return "nothing" }
        return isPlain ? "'\(YAMLEvent.clip(text))'" : "a quoted string '\(YAMLEvent.clip(text))'"
    }
}

/// How the loader reads plain scalars as booleans and numbers: by ``ValueRule``'s
/// words, the ones `set` reads too. Only plain scalars qualify: `"yes"` in quotes is
/// text, which is how YAML users opt out.
extension YAMLScalar {
    var bool: Bool? { isPlain ? ValueRule.boolean(text) : nil }

    var number: Double? { isPlain ? ValueRule.number(text) : nil }
}
