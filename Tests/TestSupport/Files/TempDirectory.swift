import Foundation

/// A directory of its own for a test's files and sockets, in /tmp, removed with
/// everything in it when it is released, however the test ends.
public final class TempDirectory {
    public let url: URL
    public var path: String { url.path }

    public init() throws {
        // Short names: a Unix socket path must fit in 108 bytes.
        var template = Array("/tmp/menud-test-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else {
            throw TimedOut(description: "mkdtemp: \(String(cString: strerror(errno)))")
        }
        url = URL(
            fileURLWithPath: String(
                decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of `name` in this directory (which may hold slashes).
    public func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Whether `name` is in this directory: what a test checks for a file a command
    /// writes when it runs.
    public func contains(_ name: String) -> Bool { FileManager.default.fileExists(atPath: file(name)) }
}

/// Runs `body` with the path of a ``TempDirectory`` of its own, removed with its
/// contents when `body` returns.
public func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
    let directory = try TempDirectory()
    return try withExtendedLifetime(directory) { try body(directory.path) }
}
