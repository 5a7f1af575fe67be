/// Why loading stopped before the end of the input. Syntax errors make everything
/// reported before them doubtful, so they are reported alone; limits are not.
struct LoadStop: Error {
    var error: ConfigError
    var isSyntax: Bool
}
