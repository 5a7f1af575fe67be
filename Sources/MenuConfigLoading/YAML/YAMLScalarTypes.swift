import MenuCore

/// How the loader reads plain scalars as booleans and numbers: by ``ValueRule``'s
/// words, the ones `set` reads too. Only plain scalars qualify: `"yes"` in quotes is
/// text, which is how YAML users opt out.
extension YAMLScalar {
    var bool: Bool? { isPlain ? ValueRule.boolean(text) : nil }

    var number: Double? { isPlain ? ValueRule.number(text) : nil }
}
