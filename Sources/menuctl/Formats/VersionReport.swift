import MenuProtocol

/// menuctl's version and protocol, and the daemon's as its `version` reply says, or
/// why there was no daemon to ask (`menuctl --version` answers without one).
struct VersionReport {
    var menud: String?
    var daemonProtocol: String?
    /// Why the daemon could not be asked; nil when it answered.
    var unreachable: String?

    init(reply: ProtocolReply) {
        for fields in reply.records where fields.count >= 2 {
            if fields[0] == "menud" { menud = fields[1] }
            if fields[0] == "protocol" { daemonProtocol = fields[1] }
        }
    }

    init(unreachable reason: String) {
        unreachable = reason
    }

    var textLines: [String] {
        let client = "menuctl \(MenudRelease.version) (protocol \(MenudRelease.protocolVersion))"
        if let unreachable { return [client, "no daemon: \(InertText.oneLine(unreachable))"] }
        return [
            client,
            "menud \(InertText.oneLine(menud ?? "?")) (protocol \(InertText.oneLine(daemonProtocol ?? "?")))",
        ]
    }

    /// `{"menuctl": {"version", "protocol"}, "menud": {…} or null}`, and `"unreachable"`
    /// with the reason when null.
    var json: String {
        func side(_ version: String?, _ proto: String?) -> String {
            RowJSON.members([
                ("version", version.map(RowJSON.string) ?? "null"),
                ("protocol", proto.map { Int($0).map(String.init) ?? RowJSON.string($0) } ?? "null"),
            ])
        }
        var members = [("menuctl", side(MenudRelease.version, MenudRelease.protocolVersion))]
        if let unreachable {
            members += [("menud", "null"), ("unreachable", RowJSON.string(unreachable))]
        } else {
            members.append(("menud", side(menud, daemonProtocol)))
        }
        return RowJSON.members(members)
    }
}
