/// A launcher's command line as `menuctl pick` reads it: whether the launcher prints
/// the index of the chosen line (fuzzel's `--index`, rofi's `-format i`) or the line
/// itself, and the command line that asks for a typed value.
///
/// An index launcher cannot send what was typed: fuzzel and rofi print `-1` for text
/// that matches no line. So a value prompt runs the same command without its index
/// option, and the launcher then prints the text typed.
struct LauncherCommand {
    /// The command line, for /bin/sh -c.
    let command: String
    /// Whether the launcher prints the 0-based index of the chosen line.
    let printsIndex: Bool
    /// The command line for a value prompt: `command` without its index option.
    let valueCommand: String
    /// Whether the value prompt's launcher still prints an index: the index was
    /// declared (`pick --index`) and no option of the command line says so.
    let valuePrintsIndex: Bool
    /// Whether the launcher reads a line's icon after it, as rofi's `\0icon\x1fNAME`:
    /// rofi and fuzzel do. Other launchers would show those bytes, or cut the line at
    /// the NUL, so they are given none.
    let takesIcons: Bool

    init(_ command: String, index: Bool) {
        self.command = command
        let options = Self.indexOptions(in: command)
        printsIndex = index || !options.isEmpty
        var value = command
        for range in options.reversed() { value.removeSubrange(range) }
        valueCommand = value
        valuePrintsIndex = index && options.isEmpty
        takesIcons = ShellWords.commands(command).contains { words in
            guard let program = words.first?.text.split(separator: "/").last else { return false }
            return program == "rofi" || program == "fuzzel"
        }
    }

    /// Where the command line asks for an index, each range with the blanks before it:
    /// fuzzel's `--index` (a flag: bemenu's `--index N`, which only highlights line N,
    /// is followed by a value) and rofi's `-format i`.
    static func indexOptions(in command: String) -> [Range<String.Index>] {
        var ranges: [Range<String.Index>] = []
        for words in ShellWords.commands(command) {
            for (i, word) in words.enumerated() {
                let next = i + 1 < words.count ? words[i + 1] : nil
                if word.text == "--index", next.map({ $0.text.hasPrefix("-") }) ?? true {
                    ranges.append(word.range)
                } else if word.text == "-format" || word.text == "--format", let next, next.text == "i" {
                    ranges.append(word.range.lowerBound..<next.range.upperBound)
                }
            }
        }
        return ranges.map { range in
            var start = range.lowerBound
            while start > command.startIndex, " \t".contains(command[command.index(before: start)]) {
                start = command.index(before: start)
            }
            return start..<range.upperBound
        }
    }
}
