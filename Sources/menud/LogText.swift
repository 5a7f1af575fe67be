/// Text from outside (a state file, a command's output) in a log line: cut to a
/// few hundred bytes, so that one huge value cannot make a huge line.
enum LogText {
    static let limit = 300

    static func cut(_ text: String) -> String {
        let bytes = text.utf8.count
        guard bytes > limit else { return text }
        // A character cut in two shows as U+FFFD.
        return "\(String(decoding: text.utf8.prefix(limit), as: UTF8.self))… (\(bytes) bytes)"
    }
}
