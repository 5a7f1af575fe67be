/// Where the daemon listens when no `--socket` is given. menud and menuctl both use
/// this, so they always agree without configuration.
public enum DefaultSocketPath {
    /// How ``resolve(environment:uid:)`` chooses, for the clients' `--socket` help.
    public static let help =
        "Default: $MENUD_SOCKET, else $XDG_RUNTIME_DIR/menud/socket, else /tmp/menud-$UID/socket."

    /// `$MENUD_SOCKET`, else `$XDG_RUNTIME_DIR/menud/socket`, else `/tmp/menud-$UID/socket`.
    public static func resolve(environment: (String) -> String?, uid: UInt32) -> String {
        if let explicit = environment("MENUD_SOCKET"), !explicit.isEmpty { return explicit }
        if let runtime = environment("XDG_RUNTIME_DIR"), !runtime.isEmpty { return "\(runtime)/menud/socket" }
        return "/tmp/menud-\(uid)/socket"
    }
}
