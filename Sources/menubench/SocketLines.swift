import Glibc

/// The lines of one socket, read as they come: what a subscriber of menud's events
/// reads, for the sections that time them (fan-out, live).
struct SocketLines {
    var fd: Int32
    var pending: [UInt8] = []
    /// Kept from read to read, so that timing a read does not time an allocation.
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)

    init(fd: Int32) { self.fd = fd }

    /// Reads what is there and returns the complete lines; nil when the socket ended.
    mutating func lines() -> [String]? {
        let n = read(fd, &buffer, 1 << 16)
        guard n > 0 else { return nil }
        pending += buffer[0..<n]
        var out: [String] = []
        while let nl = pending.firstIndex(of: UInt8(ascii: "\n")) {
            out.append(String(decoding: pending[..<nl], as: UTF8.self))
            pending.removeFirst(nl + 1)
        }
        return out
    }

    /// Blocks until a line satisfying `done` has arrived.
    mutating func wait(for done: (String) -> Bool) -> Bool {
        while true {
            guard let got = lines() else { return false }
            if got.contains(where: done) { return true }
        }
    }

    /// Connects to menud at `socketPath` and reads its greeting; nil when it cannot.
    static func greeted(_ socketPath: String) -> SocketLines? {
        guard let fd = SocketLoad.connect(socketPath) else { return nil }
        var reader = SocketLines(fd: fd)
        guard reader.wait(for: { $0.hasPrefix("OK MENUD") }) else {
            close(fd)
            return nil
        }
        return reader
    }

    /// Sends `line` and waits for its `OK`; false on an error or a closed socket.
    mutating func request(_ line: String) -> Bool {
        let bytes = Array((line + "\n").utf8)
        guard write(fd, bytes, bytes.count) == bytes.count else { return false }
        var ok = false
        _ = wait { reply in
            ok = reply == "OK"
            return reply == "OK" || reply.hasPrefix("ERR")
        }
        return ok
    }
}
