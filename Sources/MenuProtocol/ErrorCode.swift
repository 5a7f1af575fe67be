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
    case notARange = "not-a-range"
    case notActivatable = "not-activatable"
    case noSuchRow = "no-such-row"
    case notAMenu = "not-a-menu"
    case badQuery = "bad-query"
    case noSuchKey = "no-such-key"
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

    /// The code the protocol names a model error by. Two model errors share
    /// `no-such-node`: a path that names nothing and one that is not a path at all.
    public init(_ error: MenuError) {
        switch error {
        case .noSuchNode, .badPath: self = .noSuchNode
        case .notExpandable: self = .notExpandable
        case .notAValue: self = .notAValue
        case .invalidValue: self = .invalidValue
        case .notARange: self = .notARange
        case .notActivatable: self = .notActivatable
        case .noSuchRow: self = .noSuchRow
        case .notAMenu: self = .notAMenu
        case .badQuery: self = .badQuery
        case .noSuchKey: self = .noSuchKey
        }
    }
}
