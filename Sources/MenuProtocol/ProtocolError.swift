import MenuCore

/// The stable error codes of the protocol (docs/protocol.md, "Errors"). Scripts match
/// on these, so a code is never renamed; new ones may be added.
public enum ErrorCode: String, Sendable, CaseIterable {
    case unknownCommand = "unknown-command"
    case wrongArguments = "wrong-arguments"
    case noSuchNode = "no-such-node"
    case notExpandable = "not-expandable"
    case notAValue = "not-a-value"
    case invalidValue = "invalid-value"
    case notActivatable = "not-activatable"
    case noSuchRow = "no-such-row"
    case notAMenu = "not-a-menu"
    case permission
    case lineTooLong = "line-too-long"
    case badRequest = "bad-request"
    case batchFailed = "batch-failed"
    case notInBatch = "not-in-batch"
    case notBatchable = "not-batchable"
    case activationFailed = "activation-failed"
    case saveFailed = "save-failed"
    case reloadFailed = "reload-failed"
    case tooManyConnections = "too-many-connections"
    case `internal`
}

/// A refused request: the `ERR <code> <message>` terminator of a response.
public struct ProtocolError: Error, Sendable, Hashable {
    public var code: ErrorCode
    public var message: String

    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The model names its errors with protocol codes already; an unknown one would
    /// be a model bug, reported as `internal` rather than invented on the wire.
    public init(_ error: MenuError) {
        self.init(ErrorCode(rawValue: error.code) ?? .internal, error.message)
    }

    /// The terminator line, without its newline. The message is escaped like a data
    /// field so that whatever a user typed cannot split the reply.
    public var line: String { "ERR \(code.rawValue) \(ProtocolFields.escape(message))" }
}
