import ArgumentParser

/// The three forms a command's output takes: text for a person (the default),
/// JSON for a program, and the protocol's records unchanged (`--raw`) for a script
/// written against docs/protocol.md.
enum OutputStyle: String, Sendable {
    case text, json, raw

    var option: String { "--\(rawValue)" }

    /// The usage error for a style a command has no form for: an option that would be
    /// ignored must not be taken silently.
    func refused(by command: String, because reason: String) -> ValidationError {
        ValidationError("\(option) has no meaning for \(command): \(reason)")
    }
}
