import Foundation
import TestSupport
import Testing

/// A pointer for a headless sway: wlroots' headless backend makes no input device,
/// but `wayvnc` on a Unix socket gives the seat a virtual pointer, which `swaymsg
/// seat seat0 cursor …` then moves and clicks with. What is on screen is found in
/// grim's frames: an icon or a menu is where pixels differ from a frame before it.
/// wayvnc gives the seat a virtual keyboard too, which ``VNCKeyboard`` types with
/// through wayvnc's socket, ``socketPath``.
struct TrayPointer {
    let sway: SwaySession
    let vnc: BackgroundProcess
    /// Where wayvnc serves RFB.
    let socketPath: String

    static let programs = ["wayvnc"]

    /// Starts wayvnc and waits until the seat has a pointer and a keyboard. The
    /// keyboard's layout is named, as wayvnc turns the keysyms it is sent into that
    /// layout's keys (and Shift where a keysym needs it).
    init(_ sway: SwaySession) async throws {
        self.sway = sway
        socketPath = sway.directory.file("vnc.socket")
        vnc = try sway.start("wayvnc", ["--unix-socket", "--keyboard=us", socketPath])
        try await vnc.waitWhileRunning("the seat to have a pointer and a keyboard") {
            let seats = try sway.run("swaymsg", ["-t", "get_seats", "--raw"])
            return seats.status == 0 && seats.stdout.contains("\"pointer\"")
                && seats.stdout.contains("\"keyboard\"")
        }
    }

    /// Moves the pointer to (x, y) and clicks `button` there. The three steps go in
    /// one message, so that a loaded machine cannot put a pause between the move and
    /// the press (GTK opens a submenu once the pointer rests on its entry, and a
    /// press that comes long after that closes it again).
    func click(x: Int, y: Int, button: Int = 1) throws {
        let command = [
            "seat seat0 cursor set \(x) \(y)", "seat seat0 cursor press button\(button)",
            "seat seat0 cursor release button\(button)",
        ].joined(separator: "; ")
        let result = try sway.run("swaymsg", [command])
        #expect(result.status == 0, "swaymsg \(command): \(result)")
    }

    /// Moves the pointer to (x, y) without clicking.
    func move(x: Int, y: Int) throws {
        let result = try sway.run("swaymsg", ["seat seat0 cursor set \(x) \(y)"])
        #expect(result.status == 0, "swaymsg: \(result)")
    }
}

/// A rectangle of the screen, in pixels.
struct ScreenBox: Equatable, CustomStringConvertible {
    var minX: Int
    var minY: Int
    var maxX: Int
    var maxY: Int

    var midX: Int { (minX + maxX) / 2 }
    var midY: Int { (minY + maxY) / 2 }
    var description: String { "(\(minX),\(minY))–(\(maxX),\(maxY))" }

    /// The box `by` pixels smaller on every side.
    func inset(by d: Int) -> ScreenBox {
        ScreenBox(minX: minX + d, minY: minY + d, maxX: maxX - d, maxY: maxY - d)
    }
}

extension ScreenFrame {
    /// The box around every pixel that differs from `before` (of the same size) by
    /// more than `tolerance` on a channel, below row `fromRow` and in `columns`; nil
    /// when none does.
    func changes(from before: ScreenFrame, fromRow: Int = 0, columns: Range<Int>? = nil, tolerance: Int = 8)
        -> ScreenBox?
    {
        var box: ScreenBox?
        let columns = (columns ?? 0..<width).clamped(to: 0..<width)
        for y in fromRow..<height {
            for x in columns where differs(at: x, y, from: before, tolerance: tolerance) {
                if box == nil {
                    box = ScreenBox(minX: x, minY: y, maxX: x, maxY: y)
                } else {
                    box!.minX = min(box!.minX, x)
                    box!.maxX = max(box!.maxX, x)
                    box!.maxY = max(box!.maxY, y)
                }
            }
        }
        return box
    }

    /// The runs of columns in rows `rows` that hold any pixel unlike `background`: the
    /// icons on a bar, left to right.
    func columnRuns(rows: Range<Int>, unlike background: (UInt8, UInt8, UInt8), tolerance: Int = 24)
        -> [ClosedRange<Int>]
    {
        var runs: [ClosedRange<Int>] = []
        var start: Int?
        for x in 0..<width {
            let marked = rows.contains { y in !isColor(at: x, y, background, tolerance: tolerance) }
            if marked, start == nil { start = x }
            if !marked, let s = start {
                runs.append(s...(x - 1))
                start = nil
            }
        }
        if let s = start { runs.append(s...(width - 1)) }
        return runs
    }

    /// The bands of rows in `box` that hold dark pixels (text), top to bottom: a
    /// menu's entries, one band each. Bands closer than `gap` rows merge.
    func textBands(in box: ScreenBox, darkerThan limit: Int = 110, gap: Int = 3) -> [ClosedRange<Int>] {
        var bands: [ClosedRange<Int>] = []
        var start: Int?
        var lastDark = -gap - 1
        for y in box.minY...box.maxY {
            let dark = (box.minX...box.maxX).contains { x in luminance(at: x, y) < limit }
            if dark {
                if start == nil || y - lastDark > gap {
                    if let s = start { bands.append(s...lastDark) }
                    start = y
                }
                lastDark = y
            }
        }
        if let s = start { bands.append(s...lastDark) }
        return bands
    }
}
