/// Words for /bin/sh, as a bar's click action runs them.
enum ShellQuote {
    /// `word` as one word for /bin/sh: as it is when it is plainly safe, else in single quotes.
    static func quote(_ word: String) -> String {
        let safe =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                    || "-_./=@%+,".unicodeScalars.contains($0)
            }
        return safe ? word : "'" + word.replacing("'", with: #"'\''"#) + "'"
    }
}
