import MenuCore
import MenuProtocol

/// A request whose name, arity and flags have been checked against its ``Command``.
struct Invocation {
    var command: Command
    var arguments: Arguments
    var flags: Flags
    /// The node an in-process caller named by its number, in the model's numbering
    /// when it called: it stands for the first argument, a path no one spelled
    /// (``Arguments/init(values:)``). Nil for a socket's request, whose path is
    /// looked up from its bytes.
    var node: Int? = nil

    /// The flags given, by their place in the command's ``Command/flags``: a set of
    /// strings would cost a retain and a release per request, though nearly every
    /// request has none.
    struct Flags: OptionSet {
        var rawValue: UInt64

        mutating func insert(_ index: Int) { formUnion(Flags(rawValue: 1 << index)) }
    }

    func has(_ flag: String) -> Bool {
        guard !flags.isEmpty, let index = command.flags.firstIndex(of: flag) else { return false }
        return flags.contains(Flags(rawValue: 1 << index))
    }
    /// The first argument, or nil when the command was given none.
    var path: String? { arguments.first }
}

/// The arguments of an ``Invocation``, read in place from the request's words: a
/// request without flags (nearly all) needs no array of its own for them, and a
/// handler can read one as bytes (``withBytes(_:_:)``) rather than as a `String`.
struct Arguments: RandomAccessCollection {
    private let words: RequestWords
    /// The words that are arguments, when flags stand among them; else every word
    /// after the command's name.
    private let kept: [Int]?
    /// An in-process call's arguments, as it gave them: no words were made.
    private let values: [String]?

    init(_ words: RequestWords, kept: [Int]? = nil) {
        self.words = words
        self.kept = kept
        self.values = nil
    }

    /// The arguments of an in-process call; one whose first argument is a node it
    /// named by number (``Invocation/node``) has an empty string in its place.
    init(values: [String]) {
        self.words = RequestWords()
        self.kept = nil
        self.values = values
    }

    var startIndex: Int { 0 }
    var endIndex: Int { values?.count ?? kept?.count ?? (words.count - 1) }

    private func word(_ position: Int) -> Int { kept?[position] ?? (position + 1) }

    @inline(__always)
    subscript(position: Int) -> String { values?[position] ?? words.text(word(position)) }

    /// Argument `position` read as `Int(_:)` reads a `String` (an optional sign, then
    /// decimal digits, nil when it overflows), from its bytes: no `String` is made.
    @inline(__always)
    func integer(_ position: Int) -> Int? {
        withBytes(position) { bytes -> Int? in
            var i = 0
            var negative = false
            if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                negative = sign == UInt8(ascii: "-")
                i = 1
            }
            guard i < bytes.count else { return nil }
            var value = 0
            while i < bytes.count {
                let digit = bytes[i] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                let (times10, overflowed) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflowedAgain) =
                    negative
                    ? times10.subtractingReportingOverflow(Int(digit))
                    : times10.addingReportingOverflow(Int(digit))
                guard !overflowed, !overflowedAgain else { return nil }
                value = sum
                i += 1
            }
            return value
        }
    }

    /// Argument `position`'s bytes, valid during `body`.
    @inline(__always)
    func withBytes<Result>(_ position: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
        -> Result
    {
        if var value = values?[position] { return try value.withUTF8(body) }
        return try words.withBytes(word(position), body)
    }
}
