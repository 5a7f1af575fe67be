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
    /// Whether the menu is closed, and a new one may be opened.
    func isClosed() throws -> Bool
    /// Opens the menu, which must be closed.
    func open() throws
    /// Asks again for a menu that has not opened yet; the menu may be shown by then,
    /// so it must not close it or open a second one.
    func askAgain() throws
    /// The menu's windows that are open now.
    func windows() throws -> [MenuWindow]
}

extension NativeMenuProgram {
    func isClosed() throws -> Bool { try windows().isEmpty }

    /// Through the menu of Fixtures/example-static.yaml, as a user would: flips
    /// Wi-Fi, sets the volume by its 60 step (with a screenshot named `name` of the
    /// open menu) and picks the Light theme, checking each with the daemon.
    func flipSetAndPick(in daemon: TestDaemon, name: String) async throws {
        // Applications, Settings, Display, Power; Settings ▸ Network ▸ Wi-Fi: on.
        try await choose([1, 0, 0], counts: [4, 3, 2])
        try await waitUntil("\(name) to flip Wi-Fi; its log: \(log)") {
            try daemon.value(of: "settings/network/wifi") == "off"
        }
        // Display ▸ Volume: 40% ▸ its 21 steps from 0; the 13th is 60.
        try await choose([2, 0, 12], counts: [4, 2, 21]) { _ in try x.screenshot(name) }
        try await waitUntil("\(name) to set the volume; its log: \(log)") {
            try daemon.value(of: "display/volume") == "60"
        }
        // Settings ▸ Appearance ▸ Theme: Dark ▸ Light, Dark, Solarized.
        try await choose([1, 1, 0, 0], counts: [4, 3, 2, 3])
        try await waitUntil("\(name) to pick Light; its log: \(log)") {
            try daemon.value(of: "settings/appearance/theme") == "Light"
        }
    }

    /// Opens the menu, rests the pointer on entry `route[0]` of its window, then on
    /// `route[1]` of the submenu that opened, and so on, and clicks the last entry.
    /// Every window on the way must have the number of entries `counts` gives for
    /// it. Returns the windows, the menu's first, once the last one is open and before
    /// the click; `before` runs then, with them (for a screenshot).
    ///
    /// Nothing is pointed at until it is drawn and holds still (see
    /// ``settled(_:_:)``), and the last entry is clicked only once it is drawn
    /// selected: on a loaded machine a window found a moment after it was mapped may
    /// still be moving or growing, and a pointer that moved into it then may not
    /// select the entry it is on.
    @discardableResult
    func choose(
        _ route: [Int], counts: [Int], before: ([MenuWindow]) throws -> Void = { _ in },
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [MenuWindow] {
        try await waitUntil("the menu to be closed before it opens; log: \(log)", seconds: 60) {
            try isClosed()
        }
        try open()
        // A request that went nowhere (openbox before it has grabbed its key, a
        // jgmenu that gave up) is made again now and then until the menu shows.
        let clock = ContinuousClock()
        var asked = clock.now
        var (menu, frame) = try await settled("the menu to open; log: \(log)") {
            if $0.isEmpty && clock.now - asked > .seconds(3) {
                try askAgain()
                asked = clock.now
            }
            return $0.first
        }
        var path = [menu]
        for (level, k) in route.enumerated() {
            let window = path[level]
            #expect(
                window.entries.count == counts[level], "\(route) level \(level): \(window)",
                sourceLocation: sourceLocation)
            // A window that holds still has all its entries: pointing into one with
            // others would only choose some other node.
            guard window.entries.count == counts[level], k < window.entries.count else {
                throw TimedOut(
                    description: "\(route): no entry \(k) of \(counts[level]) in \(window); log: \(log)")
            }
            let entry = window.entries[k]
            if level == route.count - 1 {
                try before(path)
                try await select(
                    entry, of: window, unselected: frame,
                    pointerWasAt: route.count > 1 ? path[level - 1].entries[route[level - 1]] : nil)
                _ = try x.run("xdotool", ["click", "1"])
                return path
            }
            let known = Set(path.map(\.id))
            try await point(at: entry)
            // A submenu opens once the pointer rests on its entry. A move the program
            // did not take as entering the entry (a loaded machine) is made again now
            // and then until the submenu shows, as for the menu itself.
            var pointed = clock.now
            let submenu: MenuWindow
            (submenu, frame) = try await settled(
                "entry \(k) of \(window) to open a submenu (\(route)); log: \(log)"
            ) {
                let opened = $0.first { !known.contains($0.id) }
                if opened == nil && clock.now - pointed > .seconds(3) {
                    for x in [entry.x - 2, entry.x] {
                        _ = try self.x.run("xdotool", ["mousemove", String(x), String(entry.y)])
                    }
                    pointed = clock.now
                }
                return opened
            }
            path.append(submenu)
        }
        return path
    }

    /// Both programs act on the entry they have selected, which follows the pointer's
    /// moves; jgmenu takes the first move into a window that has just opened as
    /// entering it, and selects on the next. So two moves.
    private func point(at entry: (x: Int, y: Int)) async throws {
        try await x.movePointer(to: entry.x - 2, entry.y)
        try await x.movePointer(to: entry.x, entry.y)
    }

    /// Points at `entry` until its row is drawn otherwise than in `unselected` (a frame
    /// from before the pointer was on it), which is how both programs show the entry
    /// a click will choose. A move the program did not take as a selection is made
    /// again. A submenu may open over the menu it came from (jgmenu's do, when they
    /// do not fit beside it), with `entry` under the pointer, at `pointerWasAt`,
    /// already: that frame may show it selected, and the row need only hold still.
    private func select(
        _ entry: (x: Int, y: Int), of window: MenuWindow, unselected: ScreenFrame,
        pointerWasAt: (x: Int, y: Int)?
    ) async throws {
        let row = ScreenBox(
            minX: window.x + 1, minY: max(window.y, entry.y - 3), maxX: window.x + window.width - 2,
            maxY: min(window.y + window.height - 1, entry.y + 3))
        let clock = ContinuousClock()
        var moved = clock.now
        try await point(at: entry)
        let half = window.height / max(window.entries.count, 1) / 2
        let underAlready =
            pointerWasAt.map { window.box.contains($0.x, $0.y) && abs($0.y - entry.y) < half } ?? false
        var last: ArraySlice<UInt8>?
        try await waitUntil("entry at \(entry) of \(window) to be drawn selected; log: \(log)", seconds: 60) {
            let frame = try x.frame()
            let drawn = frame.pixels(in: row)
            defer { last = drawn }
            if (underAlready || drawn != unselected.pixels(in: row)) && drawn == last { return true }
            if clock.now - moved > .seconds(2) {
                // Not waited for: the next look sees whether it was taken.
                let x = String(entry.x)
                let y = String(entry.y)
                _ = try self.x.run("xdotool", ["mousemove", String(entry.x - 2), y, "mousemove", x, y])
                moved = clock.now
            }
            return false
        }
    }

    /// Waits until `find` picks a window from the open ones, and what it picked holds
    /// still: two looks in a row find the same windows, in the same places with the
    /// same entries, and two frames in a row show them drawn alike and not blank. A
    /// program maps its window before it has drawn it, and may move or resize it
    /// after; under load that can take a while. Returns the window picked, and the
    /// last frame.
    func settled(_ what: String, _ find: ([MenuWindow]) throws -> MenuWindow?) async throws -> (
        MenuWindow, ScreenFrame
    ) {
        var last: (windows: [MenuWindow], frame: ScreenFrame)?
        var found: (MenuWindow, ScreenFrame)?
        try await waitUntil(what, seconds: 60) {
            let open = try windows()
            guard let picked = try find(open) else {
                last = nil
                return false
            }
            let frame = try x.frame()
            defer { last = (open, frame) }
            guard let last, last.windows.map(\.signature) == open.map(\.signature),
                open.allSatisfy({ frame.pixels(in: $0.box) == last.frame.pixels(in: $0.box) }),
                frame.isDrawn(in: picked.box)
            else { return false }
            found = (picked, frame)
            return true
        }
        return try #require(found)
    }
}

extension MenuWindow {
    /// Everything the tests read of a window: equal when it has not moved or changed.
    var signature: String { "\(description): " + entries.map { "\($0.x),\($0.y)" }.joined(separator: " ") }

    var box: ScreenBox { ScreenBox(minX: x, minY: y, maxX: x + width - 1, maxY: y + height - 1) }
}

extension ScreenBox {
    func contains(_ x: Int, _ y: Int) -> Bool { (minX...maxX).contains(x) && (minY...maxY).contains(y) }
}

extension ScreenFrame {
    func pixels(in box: ScreenBox) -> ArraySlice<UInt8> {
        pixels(minX: box.minX, minY: box.minY, maxX: box.maxX, maxY: box.maxY)
    }

    /// Whether `box` holds more than one colour: text, at least, on its background.
    func isDrawn(in box: ScreenBox) -> Bool {
        let pixels = self.pixels(in: box)
        guard pixels.count > 3 else { return false }
        let start = pixels.startIndex
        return stride(from: start + 3, to: pixels.endIndex, by: 3).contains {
            pixels[$0] != pixels[start] || pixels[$0 + 1] != pixels[start + 1]
                || pixels[$0 + 2] != pixels[start + 2]
        }
    }
}

extension XSession {
    /// The whole screen now, as ImageMagick's import captures it.
    func frame() throws -> ScreenFrame {
        let path = directory.file("frame.ppm")
        let result = try run("import", ["-window", "root", "-depth", "8", "ppm:" + path])
        guard result.status == 0 else { throw TimedOut(description: "import: \(result)") }
        return try ScreenFrame(ppm: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Moves the pointer to (x, y) and waits until the server has it there. Not with
    /// xdotool's `--sync`: that waits inside xdotool, gives up after a bound of its
    /// own without failing, and a hang in it is not a condition the test sees.
    func movePointer(to x: Int, _ y: Int) async throws {
        let result = try run("xdotool", ["mousemove", String(x), String(y)])
        #expect(result.status == 0, "xdotool: \(result)")
        try await waitUntil("the pointer to be at (\(x), \(y))", seconds: 60) {
            let at = try run("xdotool", ["getmouselocation", "--shell"]).stdout
            return at.contains("X=\(x)\n") && at.contains("Y=\(y)\n")
        }
    }

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
