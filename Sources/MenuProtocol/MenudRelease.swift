/// The release menud and menuctl are built from, and the protocol version they speak:
/// written once, so that the greeting, the `version` reply and `menuctl --version` agree.
public enum MenudRelease {
    public static let version = "0.1.0"
    /// What the greeting (`OK MENUD 1`) and the `protocol` record carry.
    public static let protocolVersion = "1"
}
