/// The words of a /bin/sh command line, enough to find a program's options: quotes
/// and backslashes are undone, `|`, `;`, `&`, `(`, `)` and newlines split simple
/// commands, and a redirection (`2>/dev/null`, `< file`) is no word.
enum ShellWords {
    struct Word {
        /// The word with its quotes undone.
        var text: String
        /// Where it stands in the command line, quotes included.
        var range: Range<String.Index>
    }

    /// The words of each simple command, in order.
    static func commands(_ line: String) -> [[Word]] {
        var commands: [[Word]] = [[]]
        var text = ""
        var start: String.Index?
        var quoted = false
        var quote: Character?
        // After a redirection operator: the next word is its target, no word.
        var target = false
        var i = line.startIndex

        func end(at index: String.Index) {
            guard let begun = start else { return }
            if !target { commands[commands.count - 1].append(Word(text: text, range: begun..<index)) }
            target = false
            text = ""
            start = nil
            quoted = false
        }

        while i < line.endIndex {
            let c = line[i]
            let next = line.index(after: i)
            if let open = quote {
                if c == open {
                    quote = nil
                } else if open == "\"", c == "\\", next < line.endIndex, "$`\"\\".contains(line[next]) {
                    text.append(line[next])
                    i = line.index(after: next)
                    continue
                } else {
                    text.append(c)
                }
            } else if c == "'" || c == "\"" {
                if start == nil { start = i }
                quoted = true
                quote = c
            } else if c == "\\" {
                if start == nil { start = i }
                quoted = true
                if next < line.endIndex {
                    text.append(line[next])
                    i = line.index(after: next)
                    continue
                }
            } else if c == " " || c == "\t" {
                end(at: i)
            } else if c == "<" || c == ">" {
                if start != nil, !quoted, text.allSatisfy({ ("0"..."9").contains($0) }) {
                    // The digits right before it name the descriptor redirected.
                    text = ""
                    start = nil
                } else {
                    end(at: i)
                }
                target = true
                // `>>`, `>&`, `>|`, `<>`, `<&`, `<<`: one operator.
                while line.index(after: i) < line.endIndex, "<>&|".contains(line[line.index(after: i)]) {
                    i = line.index(after: i)
                }
            } else if "|;&()\n".contains(c) {
                end(at: i)
                target = false
                if !commands[commands.count - 1].isEmpty { commands.append([]) }
            } else {
                if start == nil { start = i }
                text.append(c)
            }
            i = line.index(after: i)
        }
        end(at: line.endIndex)
        return commands.filter { !$0.isEmpty }
    }
}
