#if canImport(Glibc)
    import Glibc
#endif

/// How a bar's click action calls menuctl back: this very binary by its absolute path
/// (the bar's working directory and PATH may differ from ours), and the same socket
/// when one was given explicitly, so that the action reaches the daemon the bar shows.
struct MenuctlInvocation {
    var words: [String]

    init(global: GlobalOptions) {
        words = [Self.executablePath()] + (global.socket.map { ["--socket", $0] } ?? [])
    }

    private static func executablePath() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return "menuctl" }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The shell command line for `menuctl ARGUMENTS…`.
    func command(_ arguments: [String]) -> String {
        (words + arguments).map(ShellQuote.quote).joined(separator: " ")
    }
}
