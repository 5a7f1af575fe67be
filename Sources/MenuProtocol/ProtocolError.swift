import MenuCore

/// A refused request: the `ERR <code> <message>` terminator of a response.
public struct ProtocolError: Error, Sendable, Hashable {
    public var code: ErrorCode
    public var message: String

    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// A model error, under the code the protocol names it by.
    public init(_ error: MenuError) {
        self.init(ErrorCode(error), error.message)
    }

    /// The terminator line, without its newline. The message is escaped like a data
    /// field so that whatever a user typed cannot split the reply.
    public var line: String { "ERR \(code.rawValue) \(ProtocolFields.escape(message))" }
}
