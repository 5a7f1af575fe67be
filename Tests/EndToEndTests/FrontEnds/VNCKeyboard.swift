import Foundation
import MenuClient
import MenuSystem
import TestSupport

/// A keyboard for a headless sway: a minimal RFB (VNC) client of `wayvnc`, which
/// turns each key event it is sent into a key of its virtual keyboard on the seat
/// (``TrayPointer`` starts it on a Unix socket). Only what keys need: the RFB 3.8
/// handshake with security type None, a shared ClientInit, the ServerInit read and
/// dropped, then KeyEvent messages. Nothing the server sends after that is read: it
/// sends framebuffer updates only when asked for them.
///
/// Blocking sockets: use it from a test with the `.ownThread` trait. Not `wtype`:
/// its virtual keyboard, left on the seat, made every later fuzzel on that seat crash.
final class VNCKeyboard {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// X keysyms (as RFB sends them): a Latin-1 character's keysym is its code point.
    enum Key {
        static let `return`: UInt32 = 0xff0d
        static let escape: UInt32 = 0xff1b
        static let down: UInt32 = 0xff54
        static let backspace: UInt32 = 0xff08
    }

    private let fd: Int32
    /// The desktop's name and size from the ServerInit, for a failure message.
    let serverName: String
    let width: Int
    let height: Int

    /// Connects to the RFB server on the Unix socket at `path` and shakes hands.
    init(socketPath path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        // A server that stops answering fails the test instead of hanging it.
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        do {
            guard let rc = UnixSocketAddress.with(path, { Glibc.connect(fd, $0, $1) }) else {
                throw Failure(description: "socket path too long: \(path)")
            }
            guard rc == 0 else {
                throw Failure(description: "connect \(path): \(String(cString: strerror(errno)))")
            }
            (serverName, width, height) = try Self.handshake(fd)
            self.fd = fd
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    /// ProtocolVersion, security (None), ClientInit, ServerInit: RFC 6143, 7.1–7.3.
    private static func handshake(_ fd: Int32) throws -> (String, Int, Int) {
        let version = String(decoding: try read(fd, 12), as: UTF8.self)
        guard version.hasPrefix("RFB 003.") else {
            throw Failure(description: "not an RFB server: \(version)")
        }
        try write(fd, Array("RFB 003.008\n".utf8))
        let count = Int(try read(fd, 1)[0])
        guard count > 0 else {
            let reason = try read(fd, Int(try uint32(read(fd, 4))))
            throw Failure(description: "the server refused: \(String(decoding: reason, as: UTF8.self))")
        }
        let types = try read(fd, count)
        // 1 is None: no authentication, what wayvnc offers when not told to ask for any.
        guard types.contains(1) else { throw Failure(description: "no security type None among \(types)") }
        try write(fd, [1])
        let result = try uint32(read(fd, 4))
        guard result == 0 else {
            let reason = (try? read(fd, Int(try uint32(read(fd, 4))))) ?? []
            throw Failure(
                description: "security failed (\(result)): \(String(decoding: reason, as: UTF8.self))")
        }
        // Shared: the test's other clients (none today) could stay connected.
        try write(fd, [1])
        let size = try read(fd, 4)
        _ = try read(fd, 16)  // the pixel format, for framebuffer updates this client never asks for
        let name = try read(fd, Int(try uint32(read(fd, 4))))
        return (
            String(decoding: name, as: UTF8.self), Int(size[0]) << 8 | Int(size[1]),
            Int(size[2]) << 8 | Int(size[3])
        )
    }

    /// A key going down (`down`) or up: KeyEvent, message type 4 (RFC 6143, 7.5.4).
    func key(_ keysym: UInt32, down: Bool) throws {
        let message: [UInt8] = [
            4, down ? 1 : 0, 0, 0,
            UInt8(keysym >> 24 & 0xff), UInt8(keysym >> 16 & 0xff), UInt8(keysym >> 8 & 0xff),
            UInt8(keysym & 0xff),
        ]
        try Self.write(fd, message)
    }

    /// Presses and releases a key.
    func tap(_ keysym: UInt32) throws {
        try key(keysym, down: true)
        try key(keysym, down: false)
    }

    /// The keysym of a printable ASCII character, which is its code point.
    static func keysym(of character: Character) throws -> UInt32 {
        guard let ascii = character.asciiValue, ascii >= 0x20, ascii < 0x7f else {
            throw Failure(description: "no keysym for \(character.debugDescription) here: ASCII only")
        }
        return UInt32(ascii)
    }

    private static func read(_ fd: Int32, _ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let n = bytes.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + offset, count - offset, 0) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                throw Failure(
                    description: n == 0
                        ? "the RFB server closed the connection"
                        : "recv: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
        return bytes
    }

    private static func write(_ fd: Int32, _ bytes: [UInt8]) throws {
        if let error = WriteAll.write(fd, bytes, toSocket: true) {
            throw Failure(description: "send: \(String(cString: strerror(error)))")
        }
    }

    private static func uint32(_ bytes: [UInt8]) -> UInt32 {
        bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }
}
