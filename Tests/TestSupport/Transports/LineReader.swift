import Foundation

/// The lines a program writes on a pipe, read without blocking (the descriptor is
/// non-blocking, as ``ProgramSpawn/pipe(nonblockingRead:)`` makes it), so that a
/// test polls for the next one inside ``waitUntil(_:seconds:sourceLocation:_:)``
/// instead of hanging on a line that never comes. The descriptor stays its owner's.
public struct LineReader {
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    public init(_ descriptor: Int32) { self.descriptor = descriptor }

    /// Reads what has arrived and returns the next whole line, without its newline;
    /// nil until one has come.
    public mutating func nextLine() -> String? {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let n = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if n > 0 { buffer += chunk[0..<n] }
        guard let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let line = String(decoding: buffer[..<newline], as: UTF8.self)
        buffer.removeSubrange(...newline)
        return line
    }
}
