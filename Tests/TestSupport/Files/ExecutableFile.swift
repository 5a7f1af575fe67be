import Foundation
import Testing

/// Writes `text` to `path` as an executable (mode 755) that may be run at once.
///
/// The test process never holds the executable open for writing: the text goes to a
/// side file first, and `install`, a child, makes the executable from it. A file
/// open for writing in any process cannot be executed (`ETXTBSY`). The test process
/// spawns children from many threads, and each child holds a copy of every
/// descriptor from its spawn until its `exec`. A script written here directly was
/// once refused as "Text file busy", because another test's child had caught the
/// descriptor. A descriptor the child `install` inherits is gone when it exits.
public func writeExecutable(
    _ text: String, to path: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let side = path + ".text"
    try text.write(toFile: side, atomically: false, encoding: .utf8)
    defer { unlink(side) }
    try copyExecutable(side, to: path, sourceLocation: sourceLocation)
}

/// Copies the executable `source` to `path` (mode 755), as ``writeExecutable(_:to:sourceLocation:)``
/// writes one: the test process never holds the copy open for writing.
public func copyExecutable(
    _ source: String, to path: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let installed = try run(
        "/usr/bin/install", ["-m", "755", source, path], environment: [:], seconds: 60,
        sourceLocation: sourceLocation)
    guard installed.status == 0 else {
        throw TimedOut(description: "install \(source) as \(path): \(installed.stderr)")
    }
}
