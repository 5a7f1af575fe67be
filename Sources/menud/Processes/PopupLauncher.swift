import Logging
import MenuLoop
import MenuProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// Starts `menud-popup` on this daemon, for the tray icon's middle click. The popup
/// beside menud's own executable comes first (an installed pair, or a build
/// directory, whatever `PATH` holds), else the one on `PATH`, and it is given
/// `--socket` with the daemon's own socket, so that it shows this daemon whatever
/// `MENUD_SOCKET` says. It starts as an application of the menu does
/// (``ProcessTable``): a program and its arguments, no shell, in a session of its own,
/// its streams on `/dev/null`, reaped by the loop. A popup open already is closed by
/// the one started (its single instance), so one click opens it and the next closes
/// it.
///
/// A popup that cannot be found or started, or that fails, is one line in the log,
/// at most once a minute: a host that clicks again and again cannot flood it.
final class PopupLauncher {
    static let program = "menud-popup"

    private let socketPath: String
    private let processes: ProcessTable
    private let logger: Logger
    private var failures = LogThrottle(interval: .seconds(60))

    init(socketPath: String, processes: ProcessTable, logger: Logger) {
        self.socketPath = socketPath
        self.processes = processes
        self.logger = logger
    }

    /// Starts a popup. Throws, having logged why, when none can be found or started.
    func start() throws(ProtocolError) {
        let executable = Self.ownExecutable()
        guard let program = Self.locate(besides: executable, path: ProcessEnvironment.value("PATH")) else {
            let beside = executable.map { " beside \($0)" } ?? ""
            throw failed(
                ProtocolError(
                    .activationFailed, "cannot open the popup: no \(Self.program)\(beside) or on PATH"))
        }
        let process: ChildProcess
        do {
            process = try processes.launch(program: .arguments([program, "--socket", socketPath])) {
                [weak self] result in
                guard !result.exit.succeeded else { return }
                // Its standard error is not read; a display missing from the daemon's
                // environment (a service started before the session's) is the usual why.
                self?.log(
                    "the popup \(program) \(result.exit); it needs DISPLAY or WAYLAND_DISPLAY in menud's environment"
                )
            }
        } catch {
            throw failed(ProtocolError(.activationFailed, "cannot open the popup: \(error.message)"))
        }
        logger.info("tray: started pid \(process.pid): \(program) --socket \(socketPath)")
    }

    /// Logs `error` (throttled) and returns it, to be thrown.
    private func failed(_ error: ProtocolError) -> ProtocolError {
        log(error.message)
        return error
    }

    private func log(_ message: String) {
        let (log, suppressed) = failures.admit()
        guard log else { return }
        let more = LogThrottle.heldBack(suppressed)
        logger.warning("tray: \(message)\(more)")
    }

    /// `menud-popup` in the folder of `executable` (menud's own path), else in the
    /// first folder of `path` that has it. Only absolute folders count: the daemon's
    /// working directory is nobody's choice of where programs are.
    static func locate(besides executable: String?, path: String?) -> String? {
        var folders: [Substring] = []
        if let executable, let slash = executable.lastIndex(of: "/") {
            folders.append(slash == executable.startIndex ? "/" : executable[..<slash])
        }
        folders += (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        for folder in folders where folder.hasPrefix("/") {
            let candidate = (folder.hasSuffix("/") ? String(folder) : folder + "/") + program
            if isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    /// What `/proc/self/exe` links to; nil when it cannot be read.
    static func ownExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
    }
}
