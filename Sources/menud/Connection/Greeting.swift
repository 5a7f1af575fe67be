import MenuProtocol

/// `OK MENUD <version>`, sent when a connection is admitted, so a client knows it
/// reached menud (and which protocol) before sending anything.
enum Greeting {
    static let protocolVersion = MenudRelease.protocolVersion
    static let text = "MENUD \(protocolVersion)"
}
