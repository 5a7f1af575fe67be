import MenuCore

/// What to do about libyaml's syntax errors. Its words name the parser's state ("did
/// not find expected '-' indicator"), and in a hand-written menu almost every one of
/// them is a line indented one step too far or too little, or a value that needed
/// quotes; the hint says which, with the column the line should start at where
/// libyaml's context gives it.
enum YAMLSyntaxHint {
    /// " at LINE:COL", where the context began.
    private static func since(_ at: SourceMark?) -> String {
        at.map { " at \($0.line):\($0.column)" } ?? ""
    }

    /// The hint for `problem`, whose `context` started at `at`, or nil when there is
    /// nothing more useful to say than libyaml's words.
    static func hint(problem: String, context: String?, at: SourceMark?) -> String? {
        let column = at.map { " (column \($0.column))" } ?? ""
        switch problem {
        case "did not find expected '-' indicator":
            return "check the indentation: a list's entries start with '-' lined up with the first"
                + column + ", and an entry's keys line up with its first key"
        case "did not find expected key":
            return "check the indentation: a mapping's keys line up with its first key" + column
                + ", and a list under a key is indented further than the key"
        case "mapping values are not allowed here", "mapping values are not allowed in this context":
            return "check the indentation of this line and the one above it, "
                + "and quote a value that holds ': ' (title: \"Time: now\")"
        case "block sequence entries are not allowed here",
            "block sequence entries are not allowed in this context":
            return "check the indentation: a '-' entry starts its own line, indented under its key"
        case "could not find expected ':'":
            return "a key needs ': ' after it; check for an unclosed quote or a missing ':'" + since(at)
        case "did not find expected node content":
            return "a value is missing here, or the line is indented wrongly"
        case "did not find expected ',' or ']'":
            return "close the '['" + since(at) + " with ']', and quote an entry that holds ',' or ']'"
        case "did not find expected ',' or '}'":
            return "close the '{'" + since(at) + " with '}', and quote a value that holds ',' or '}'"
        case "found unexpected end of stream" where context == "while scanning a quoted scalar":
            return "close the quote" + since(at)
        default:
            return nil
        }
    }
}
