/// Who is at the other end of a Unix socket, in the kernel's word (`SO_PEERCRED`,
/// Linux's `struct ucred`, which Swift's Glibc does not show without `_GNU_SOURCE`:
/// three 32-bit fields, laid out in Swift as in C).
public struct PeerCredentials: Sendable, Equatable {
    public var pid: Int32 = 0
    public var uid: UInt32 = 0
    public var gid: UInt32 = 0

    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    init() {}
}
