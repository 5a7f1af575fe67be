import Foundation
import TestSupport
import Testing

/// One open window of a window manager's or launcher's own menu (openbox, jgmenu),
/// and where its entries are on the screen. Neither program has a way to ask what a
/// menu shows, so the tests find the windows and point at entries by position: every
/// entry a label or a title could add, or take away, moves the ones after it, and
/// shows in the count.
struct MenuWindow: CustomStringConvertible {
    var id: String
    var x: Int
    var y: Int
    var width: Int
    var height: Int
    /// Each entry's centre, top to bottom.
    var entries: [(x: Int, y: Int)]

    var description: String { "window \(id) \(width)x\(height)+\(x)+\(y) with \(entries.count) entries" }
}

/// A menu program on an ``XSession`` whose menu a test opens, points into and clicks.
protocol NativeMenuProgram {
    var x: XSession { get }
    /// What the failure messages show: the program's log.
    var log: String { get }
    /// Opens the menu, which must be closed.
    func open() throws
    /// Asks again for a menu that has not opened yet; the menu may be shown by then,
    /// so it must not close it or open a second one.
    func askAgain() throws
    /// The menu's windows that are open now.
    func windows() throws -> [MenuWindow]
}

extension NativeMenuProgram {
    /// Opens the menu, rests the pointer on entry `route[0]` of its window, then on
    /// `route[1]` of the submenu that opened, and so on, and clicks the last entry.
    /// Every window on the way must have the number of entries `counts` gives for
    /// it. Returns the windows, the menu's first, once the last one is open and before
    /// the click; `before` runs then, with them (for a screenshot).
    @discardableResult
    func choose(
        _ route: [Int], counts: [Int], before: ([MenuWindow]) throws -> Void = { _ in },
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [MenuWindow] {
        try await waitUntil("the menu to be closed before it opens; log: \(log)") { try windows().isEmpty }
        try open()
        var open: [MenuWindow] = []
        var polls = 0
        try await waitUntil("the menu to open; log: \(log)") {
            open = try windows()
            polls += 1
            if open.isEmpty && polls.isMultiple(of: 100) { try askAgain() }
            return !open.isEmpty
        }
        var path = [open[0]]
        for (level, k) in route.enumerated() {
            let window = path[level]
            #expect(
                window.entries.count == counts[level], "\(route) level \(level): \(window)",
                sourceLocation: sourceLocation)
            guard k < window.entries.count else {
                throw TimedOut(description: "\(route): no entry \(k) in \(window); log: \(log)")
            }
            let entry = window.entries[k]
            if level == route.count - 1 {
                try before(path)
                // Both programs act on the entry they have selected, which follows the
                // pointer's moves; jgmenu takes the first move into a window that has
                // just opened as entering it, and selects on the next.
                try pointer(at: entry.x - 2, entry.y)
                try pointer(at: entry.x, entry.y)
                _ = try x.run("xdotool", ["click", "1"])
                return path
            }
            // Two moves, as above; a submenu opens once the pointer rests on its entry.
            let known = Set(try windows().map(\.id))
            try pointer(at: entry.x - 2, entry.y)
            try pointer(at: entry.x, entry.y)
            var submenu: MenuWindow?
            try await waitUntil("entry \(k) of \(window) to open a submenu (\(route)); log: \(log)") {
                submenu = try windows().first { !known.contains($0.id) }
                return submenu != nil
            }
            path.append(submenu!)
        }
        return path
    }

    private func pointer(at x: Int, _ y: Int) throws {
        let result = try self.x.run("xdotool", ["mousemove", "--sync", String(x), String(y)])
        #expect(result.status == 0, "xdotool: \(result)")
    }
}

extension XSession {
    /// The ids (as xdotool prints them, in decimal) of the windows that are mapped
    /// now, of those `xdotool search` finds with `arguments`.
    func visibleWindows(_ arguments: [String]) throws -> Set<Int> {
        let result = try run("xdotool", ["search", "--onlyvisible"] + arguments)
        return Set(result.stdout.split(separator: "\n").compactMap { Int($0) })
    }

    /// A window's place and size, from `xdotool getwindowgeometry --shell`.
    func geometry(of id: Int) throws -> (x: Int, y: Int, width: Int, height: Int)? {
        let shell = try run("xdotool", ["getwindowgeometry", "--shell", String(id)]).stdout
        var fields: [String: Int] = [:]
        for line in shell.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Int(parts[1]) { fields[String(parts[0])] = value }
        }
        guard let x = fields["X"], let y = fields["Y"], let width = fields["WIDTH"],
            let height = fields["HEIGHT"]
        else { return nil }
        return (x, y, width, height)
    }
}

/// What choosing an entry of the hostile menu does, and how a test sees it.
enum HostileChoice {
    /// An item: its command touches this file in the daemon's directory.
    case ran(String)
    /// An option or a range's step: the node has this value.
    case value(String, String)
    /// A text row: nothing runs; the menu closes.
    case nothing

    /// The route to each entry of hostile-menus.yaml, and what choosing it does. The
    /// menu is Evil (its items, a text row, Pick's two options and Level's three
    /// steps) and Plain (one item).
    static let all: [(route: [Int], counts: [Int], choice: HostileChoice)] = {
        let items = [
            "comma", "lines", "widget", "pipe", "triple", "item", "shell", "under", "markup", "controls",
            "long",
        ]
        var out = items.enumerated().map { k, id in ([0, k], [2, 14], HostileChoice.ran("ran-\(id)")) }
        out.append(([0, 11], [2, 14], .nothing))
        out += [
            ([0, 12, 1], [2, 14, 2], .value("evil/pick", "b")),
            ([0, 12, 0], [2, 14, 2], .value("evil/pick", "a")),
            ([0, 13, 0], [2, 14, 3], .value("evil/level", "0")),
            ([0, 13, 2], [2, 14, 3], .value("evil/level", "2")),
            ([1, 0], [2, 1], .ran("ran-ok")),
        ]
        return out
    }()

    /// Waits until choosing the entry has done what it does; for a text row, until
    /// the menu has closed.
    func wait(_ daemon: TestDaemon, _ menu: some NativeMenuProgram) async throws {
        switch self {
        case .ran(let file):
            try await waitUntil("\(file) in the daemon's directory; log: \(menu.log)") {
                daemon.directory.contains(file)
            }
        case .value(let path, let value):
            try await waitUntil("\(path) to be \(value); log: \(menu.log)") {
                try daemon.value(of: path) == value
            }
        case .nothing:
            try await waitUntil("the menu to close; log: \(menu.log)") { try menu.windows().isEmpty }
        }
    }
}
