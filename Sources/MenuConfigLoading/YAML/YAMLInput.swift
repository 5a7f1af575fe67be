import CYAML
import MenuCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where libyaml reads a config from. A file is streamed to libyaml in the chunks it
/// asks for, so that a big config is never held whole next to the tree built from
/// it; the text is read again only to explain a syntax error, which needs the bytes
/// around the error.
final class YAMLInput {
    private enum Source {
        case bytes(UnsafeBufferPointer<UInt8>)
        case file(path: String, fd: Int32)
    }

    private let source: Source
    /// The `errno` of a failed read, which libyaml reports only as "input error".
    private(set) var readError: Int32?

    /// `bytes` must stay valid for the input's lifetime; libyaml reads them in place.
    init(bytes: UnsafeBufferPointer<UInt8>) { source = .bytes(bytes) }

    /// Opens `path`, which must be a regular file, or says why it cannot be read.
    static func opening(path: String) -> Result<YAMLInput, OpenFailure> {
        // O_NONBLOCK: a FIFO put in the config's place must not hang the daemon in open().
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return .failure(OpenFailure(code: errno)) }
        var info = stat()
        let kind = fstat(fd, &info) == 0 ? info.st_mode & S_IFMT : 0
        guard kind == S_IFREG else {
            close(fd)
            return .failure(
                kind == S_IFDIR ? OpenFailure(code: EISDIR) : OpenFailure(reason: "not a regular file"))
        }
        return .success(YAMLInput(path: path, fd: fd))
    }

    struct OpenFailure: Error {
        var reason: String

        init(code: Int32) { reason = String(cString: strerror(code)) }
        init(reason: String) { self.reason = reason }
    }

    private init(path: String, fd: Int32) { source = .file(path: path, fd: fd) }

    deinit {
        if case .file(_, let fd) = source { close(fd) }
    }

    /// Points `parser` at this input; the parser must not outlive it.
    func attach(to parser: UnsafeMutablePointer<yaml_parser_t>) {
        switch source {
        case .bytes(let bytes):
            yaml_parser_set_input_string(parser, bytes.baseAddress, bytes.count)
        case .file:
            yaml_parser_set_input(
                parser,
                { data, buffer, size, sizeRead in
                    guard let data, let buffer, let sizeRead else { return 0 }
                    let input = Unmanaged<YAMLInput>.fromOpaque(data).takeUnretainedValue()
                    guard let n = input.fill(buffer, size: size) else { return 0 }
                    sizeRead.pointee = n
                    return 1
                }, Unmanaged.passUnretained(self).toOpaque())
        }
    }

    /// How many bytes the input has, or nil when unknown.
    var size: Int? {
        switch source {
        case .bytes(let bytes): return bytes.count
        case .file(_, let fd):
            var info = stat()
            return fstat(fd, &info) == 0 ? Int(info.st_size) : nil
        }
    }

    /// All of the input, for error messages only.
    func text() -> [UInt8] {
        switch source {
        case .bytes(let bytes): return Array(bytes)
        case .file(let path, _):
            // A second descriptor, so that the streaming one keeps its offset.
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return [] }
            defer { close(fd) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return bytes }
                bytes.append(contentsOf: chunk[0..<n])
            }
        }
    }

    private func fill(_ buffer: UnsafeMutablePointer<UInt8>, size: Int) -> Int? {
        guard case .file(_, let fd) = source else { return 0 }
        while true {
            let n = read(fd, buffer, size)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            readError = errno
            return nil
        }
    }
}
