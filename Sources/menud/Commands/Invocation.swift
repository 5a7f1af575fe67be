import MenuCore
import MenuProtocol

/// A request whose name, arity and flags have been checked against its ``Command``.
struct Invocation {
    var command: Command
    var arguments: Arguments
    var flags: Set<String>

    func has(_ flag: String) -> Bool { flags.contains(flag) }
    /// The first argument, or nil when the command was given none.
    var path: String? { arguments.first }
}

/// The arguments of an ``Invocation``, read in place from the request's words: a
/// request without flags (nearly all) needs no array of its own for them.
struct Arguments: RandomAccessCollection {
    private let words: ArraySlice<ProtocolWord>

    init(_ words: ArraySlice<ProtocolWord>) { self.words = words }

    var startIndex: Int { 0 }
    var endIndex: Int { words.count }
    subscript(position: Int) -> String { words[words.startIndex + position].text }
}
