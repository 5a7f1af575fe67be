import MenuProtocol

extension ProtocolReply {
    /// The reply's `row` records.
    var rowRecords: [RowRecord] { lines.compactMap { RowRecord(fields: ProtocolFields.fields(of: $0)) } }
    /// The reply's `found` records.
    var foundRecords: [FoundRecord] {
        lines.compactMap { FoundRecord(fields: ProtocolFields.fields(of: $0)) }
    }
    /// Every data line split into its fields.
    var records: [[String]] { lines.map { ProtocolFields.fields(of: $0) } }
}
