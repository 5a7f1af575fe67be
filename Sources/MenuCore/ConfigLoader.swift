#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Loads a menu config from YAML. Every problem found is reported with its place in
/// the file (see docs/config.md for the format, the limits and the list of errors);
/// a config with any error yields no menus at all, so the daemon never serves half
/// a menu.
public enum ConfigLoader {
    /// Reads and loads a file. An unreadable file gives one error at 1:1.
    public static func load(path: String) -> Result<MenuConfig, ConfigErrors> {
        switch readFile(path) {
        case .success(let bytes): return load(bytes: bytes, file: path)
        case .failure(let failure):
            let reason = failure.reason
            return .failure(
                ConfigErrors([
                    ConfigError(
                        file: path, mark: SourceMark(line: 1, column: 1),
                        message: "cannot read config: \(reason)")
                ]))
        }
    }

    public static func load(text: String, file: String) -> Result<MenuConfig, ConfigErrors> {
        load(bytes: Array(text.utf8), file: file)
    }

    public static func load(bytes: [UInt8], file: String) -> Result<MenuConfig, ConfigErrors> {
        decode(bytes: bytes, file: file, nodesOnly: false).map { MenuConfig(file: file, menus: $0) }
    }

    /// Loads a bare YAML list of nodes, as a group's `children-cmd` prints them, with
    /// the same checks and `FILE:LINE:COL` errors as a config; `file` names the source
    /// in those errors.
    public static func loadNodes(bytes: [UInt8], file: String) -> Result<[NodeSpec], ConfigErrors> {
        decode(bytes: bytes, file: file, nodesOnly: true)
    }

    private static func decode(bytes: [UInt8], file: String, nodesOnly: Bool) -> Result<
        [NodeSpec], ConfigErrors
    > {
        bytes.withUnsafeBufferPointer { input in
            guard input.count > 0 else {
                return .failure(
                    ConfigErrors([
                        ConfigError(file: file, mark: SourceMark(line: 1, column: 1), message: "empty config")
                    ]))
            }
            let reader = YAMLEventReader(input: input, file: file)
            var decoder = ConfigDecoder(reader: reader, nodesOnly: nodesOnly)
            var errors: [ConfigError]
            var menus: [NodeSpec] = []
            do throws(LoadStop) {
                menus = try decoder.decode()
                errors = decoder.errors + reader.problems
            } catch {
                errors = error.isSyntax ? [error.error] : decoder.errors + reader.problems + [error.error]
            }
            if errors.isEmpty { return .success(menus) }
            return .failure(ConfigErrors(inFileOrder(errors)))
        }
    }

    /// Some checks run when a node ends, after its children were checked; sorting
    /// puts every message back where it is in the file. Ties keep the order found.
    private static func inFileOrder(_ errors: [ConfigError]) -> [ConfigError] {
        errors.enumerated().sorted { a, b in
            (a.element.mark.line, a.element.mark.column, a.offset)
                < (b.element.mark.line, b.element.mark.column, b.offset)
        }.map(\.element)
    }

    private struct ReadFailure: Error {
        var reason: String

        init(code: Int32) { reason = String(cString: strerror(code)) }
        init(reason: String) { self.reason = reason }
    }

    private static func readFile(_ path: String) -> Result<[UInt8], ReadFailure> {
        // O_NONBLOCK: a FIFO put in the config's place must not hang the daemon in open().
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return .failure(ReadFailure(code: errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(ReadFailure(code: errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return .failure(ReadFailure(code: EISDIR))
        default: return .failure(ReadFailure(reason: "not a regular file"))
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(ReadFailure(code: errno))
            }
            if n == 0 { return .success(bytes) }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }
}
