import Foundation
import TestSupport
import Testing

/// A value the "system" changed, in the tray: the layout shows it, and a host that
/// has the layout is told of exactly that entry.
@Suite(.ownThread) struct LiveValueTrayTests {
    @Test(.enabled(if: XTools.shouldRun(SessionBus.programs)))
    func theTrayShowsAValueTheSystemChanged() async throws {
        try XTools.require(SessionBus.programs)
        let directory = try TempDirectory()
        let events = directory.file("flicker-events")
        try "".write(toFile: events, atomically: true, encoding: .utf8)
        try "40\n".write(toFile: directory.file("volume"), atomically: true, encoding: .utf8)
        try await withSessionBus { bus in
            try await withDaemon(
                config: TestPaths.fixture("system.yaml"), arguments: ["--tray"], directory: directory,
                environment: bus.environment
            ) { daemon in
                let tray = TrayDaemon(daemon: daemon, bus: bus)
                let name = try #require(
                    try await tray.waitForItems(["sound", "wifi", "output", "crashing", "forking", "hostile"]
                    )[
                        "sound"])
                let (_, before) = try bus.layout(of: name)
                #expect(before.entry(labelled: "Flicker: 35") == nil)
                let monitor = try await bus.monitor(
                    match:
                        "type='signal',member='ItemsPropertiesUpdated',sender='\(try #require(try bus.owner(of: name)))'"
                )
                try await withCleanup(
                    {
                        // The listener follows the file from its end once it has
                        // started, which nothing outside it tells: the line is written
                        // again until it is seen.
                        func report() throws {
                            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: events))
                            defer { try? handle.close() }
                            try handle.seekToEnd()
                            try handle.write(contentsOf: Data("35\n".utf8))
                        }
                        try await waitUntil("the layout to show the new value") {
                            if try bus.layout(of: name).root.entry(labelled: "Flicker: 35") != nil {
                                return true
                            }
                            try report()
                            return false
                        }
                        try await waitUntil("ItemsPropertiesUpdated; log: \(monitor.log)") {
                            monitor.log.contains("ItemsPropertiesUpdated")
                        }
                    }, cleanup: { await monitor.stop() })
            }
        }
    }
}
