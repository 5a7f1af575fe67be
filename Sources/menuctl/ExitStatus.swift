/// Exit statuses are part of menuctl's interface: scripts branch on them.
enum ExitStatus {
    static let ok: Int32 = 0
    static let daemonError: Int32 = 1
    static let usage: Int32 = 2
    static let unreachable: Int32 = 3
}
