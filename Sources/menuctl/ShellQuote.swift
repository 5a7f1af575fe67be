/// Words for /bin/sh, as a bar's click action runs them.
enum ShellQuote {
    /// `word` as one word for /bin/sh: as it is when it is plainly safe, else in single quotes.
    static func quote(_ word: String) -> String {
        let safe = !word.isEmpty && word.unicodeScalars.allSatisfy(isSafe)
        return safe ? word : "'" + word.replacing("'", with: #"'\''"#) + "'"
    }

    /// Whether `scalar` means itself anywhere in a word, unquoted.
    static func isSafe(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            || "-_./=@%+,".unicodeScalars.contains(scalar)
    }
}
