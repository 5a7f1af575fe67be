import MenuProtocol

/// The D-Bus error name of each protocol error code, by a table: D-Bus names have no
/// hyphens, and a name that a host or script matches must not change because a code
/// is spelled differently.
enum TrayErrorName {
    static let names: [ErrorCode: String] = [
        .unknownCommand: "UnknownCommand",
        .wrongArguments: "WrongArguments",
        .noSuchNode: "NoSuchNode",
        .notExpandable: "NotExpandable",
        .notAValue: "NotAValue",
        .invalidValue: "InvalidValue",
        .notARange: "NotARange",
        .notActivatable: "NotActivatable",
        .noSuchRow: "NoSuchRow",
        .notAMenu: "NotAMenu",
        .badQuery: "BadQuery",
        .noSuchKey: "NoSuchKey",
        .permission: "Permission",
        .lineTooLong: "LineTooLong",
        .badRequest: "BadRequest",
        .batchFailed: "BatchFailed",
        .notInBatch: "NotInBatch",
        .notBatchable: "NotBatchable",
        .activationFailed: "ActivationFailed",
        .saveFailed: "SaveFailed",
        .reloadFailed: "ReloadFailed",
        .tooManyConnections: "TooManyConnections",
        .internal: "Internal",
    ]

    /// `org.menud.Error.NotActivatable` for `.notActivatable`.
    static func of(_ code: ErrorCode) -> String {
        "org.menud.Error." + (names[code] ?? "Internal")
    }
}
