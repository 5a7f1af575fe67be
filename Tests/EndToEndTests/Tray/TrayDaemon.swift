import Foundation
import TestSupport
import Testing

/// A real menud publishing its menus on a test's ``SessionBus``, with `--tray` or its
/// config's `settings: tray`.
struct TrayDaemon {
    let daemon: TestDaemon
    let bus: SessionBus

    /// The bus name of each item, by its `Id` (the menu's id).
    func items() throws -> [String: String] {
        var out: [String: String] = [:]
        for name in try bus.names(startingWith: "org.kde.StatusNotifierItem-\(daemon.pid)-") {
            if let id = try? bus.property(name, "/StatusNotifierItem", "org.kde.StatusNotifierItem", "Id")
                as? String
            {
                out[id] = name
            }
        }
        return out
    }

    /// Waits until every menu of `menus` has its item, and returns their names.
    func waitForItems(_ menus: Set<String>) async throws -> [String: String] {
        var found: [String: String] = [:]
        try await waitUntil("tray items for \(menus.sorted()); log:\n\(daemon.log)") {
            // The names first: asking each item for its Id costs a busctl each.
            let names = try bus.names(startingWith: "org.kde.StatusNotifierItem-\(daemon.pid)-")
            guard names.count == menus.count else { return false }
            found = try items()
            return Set(found.keys) == menus
        }
        return found
    }
}

/// Runs `body` against a menud on `bus` serving `config`, stopped however it ends.
func withTrayDaemon<T>(
    on bus: SessionBus, config: String = TestPaths.fixture("menu.yaml"), arguments: [String] = ["--tray"],
    watch: Bool = false, _ body: (TrayDaemon) async throws -> T
) async throws -> T {
    try await withDaemon(config: config, arguments: arguments, environment: bus.environment, watch: watch) {
        try await body(TrayDaemon(daemon: $0, bus: bus))
    }
}
