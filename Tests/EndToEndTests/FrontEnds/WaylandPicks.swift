import Foundation
import TestSupport
import Testing

/// `menuctl pick` with a real Wayland launcher in a headless sway, typed at as a user
/// would through wayvnc's virtual keyboard (``VNCKeyboard``). The launchers a pick
/// starts are told apart by pid: each descends from the pick, and starts only after
/// the one before it has exited. A launcher is ready for keys once it
/// shows: a layer-shell surface that takes the keyboard has it from the frame it is
/// first drawn in.
///
/// Each key is held until the screen shows it, then released: bemenu keeps only the
/// last key event it read at once, so a press and its release read together type
/// nothing. Key repeat is off in the session, so a key held that long types once.
final class WaylandPicks {
    let sway: SwaySession
    let daemon: TestDaemon
    let launcher: WaylandLauncher
    /// The launcher's command line, as documented.
    let form: String
    private let pointer: TrayPointer
    private let keyboard: VNCKeyboard
    /// The screen with no launcher on it.
    private let rest: ScreenFrame
    /// Every launcher process seen so far.
    private var seen: Set<pid_t> = []
    /// The screen as a launcher last showed it, with what was typed: the next
    /// launcher's first frame is unlike it.
    private var lastShown: ScreenFrame?

    init(_ sway: SwaySession, _ daemon: TestDaemon, _ launcher: WaylandLauncher) async throws {
        self.sway = sway
        self.daemon = daemon
        self.launcher = launcher
        form = try launcher.documentedForm()
        // GTK's (wofi's) text cursor blinks: a frame that changed would say nothing
        // of a key then.
        let gtk = sway.directory.file("config/gtk-3.0")
        try FileManager.default.createDirectory(atPath: gtk, withIntermediateDirectories: true)
        try "[Settings]\ngtk-cursor-blink=false\n".write(
            toFile: gtk + "/settings.ini", atomically: true, encoding: .utf8)
        for path in [sway.directory.file("config"), gtk, gtk + "/settings.ini"] { try sway.user.own(path) }
        pointer = try await TrayPointer(sway)
        let repeatOff = try sway.run("swaymsg", ["input type:keyboard repeat_rate 0"])
        guard repeatOff.status == 0 else { throw TimedOut(description: "swaymsg repeat_rate: \(repeatOff)") }
        keyboard = try VNCKeyboard(socketPath: pointer.socketPath)
        // The pointer out of the way of what the launchers draw.
        try pointer.move(x: sway.width - 1, y: sway.height - 1)
        rest = try await Self.stableFrame(sway, "the empty screen")
    }

    /// Starts `menuctl pick` with the launcher's documented command line as the
    /// session's user, against the daemon.
    func start(search: Bool = false) throws -> BackgroundProcess {
        try sway.start(
            sway.menuctl,
            ["--socket", daemon.socketPath, "pick"] + (search ? ["--search"] : []) + ["--launcher", form])
    }

    /// Waits until a launcher of `pick` not seen before shows, and returns its pid.
    @discardableResult
    func waitForLauncher(of pick: BackgroundProcess) async throws -> pid_t {
        var found: pid_t?
        var previous: ScreenFrame?
        do {
            try await waitUntil("a new \(launcher.program) of \(pick.name) to show") {
                let new = Self.launchers(launcher.program, of: pick.pid).subtracting(seen)
                guard let pid = new.first else {
                    guard pick.isRunning else {
                        throw TimedOut(
                            description: "\(pick.name) \(pick.ending) before \(launcher.program) showed")
                    }
                    previous = nil
                    return false
                }
                // Drawn, and drawn whole: the same twice running, unlike the screen
                // without it and unlike the launcher before it.
                let frame = try sway.frame()
                defer { previous = frame }
                guard frame == previous, frame != rest, frame != lastShown else { return false }
                found = pid
                return true
            }
        } catch let error as TimedOut {
            throw TimedOut(description: "\(error); pick's log: \(pick.log)")
        }
        let pid = try #require(found)
        seen.insert(pid)
        return pid
    }

    /// Types `text` into the launcher showing, a key at a time.
    func type(_ text: String) async throws {
        for character in text {
            let keysym = try VNCKeyboard.keysym(of: character)
            let before = try sway.frame()
            try await hold(keysym, "'\(character)' to show in \(launcher.program)") {
                try sway.frame() != before
            }
        }
        lastShown = try sway.frame()
    }

    /// Presses Return in the launcher `pid` and waits for it to exit with its answer.
    func enter(_ pid: pid_t) async throws {
        try await hold(VNCKeyboard.Key.return, "\(launcher.program) (\(pid)) to exit on Return") {
            !Self.isLiving(pid)
        }
    }

    /// Presses Escape in the launcher `pid` and waits for it to exit.
    func escape(_ pid: pid_t) async throws {
        lastShown = try sway.frame()
        try await hold(VNCKeyboard.Key.escape, "\(launcher.program) (\(pid)) to exit on Escape") {
            !Self.isLiving(pid)
        }
    }

    /// Holds `keysym` down until `condition` holds, then lets it go.
    private func hold(_ keysym: UInt32, _ what: String, until condition: () throws -> Bool) async throws {
        try keyboard.key(keysym, down: true)
        do {
            try await waitUntil(what, condition)
        } catch {
            try? keyboard.key(keysym, down: false)
            throw error
        }
        try keyboard.key(keysym, down: false)
    }

    /// A screenshot of what shows now, kept as `name` (see ``Screenshots``).
    func screenshot(_ name: String) throws { try sway.screenshot(name) }

    /// The living processes called `name` that descend from `pick`.
    static func launchers(_ name: String, of pick: pid_t) -> Set<pid_t> {
        Set(livingDescendants(of: pick).filter { $0.name == name }.map(\.pid))
    }

    /// The living processes called `name` owned by `user`, whatever their group.
    static func processes(_ name: String, of user: TestUser) -> [pid_t] {
        ProcessEntry.all().filter { process in
            var info = stat()
            return process.name == name && process.isLiving && stat("/proc/\(process.pid)", &info) == 0
                && info.st_uid == user.uid
        }.map(\.pid)
    }

    private static func isLiving(_ pid: pid_t) -> Bool {
        ProcessEntry.all().contains { $0.pid == pid && $0.isLiving }
    }

    /// The screen once two frames running are the same.
    private static func stableFrame(_ sway: SwaySession, _ what: String) async throws -> ScreenFrame {
        var previous: ScreenFrame?
        var stable: ScreenFrame?
        try await waitUntil("\(what) to stay the same") {
            let frame = try sway.frame()
            defer { previous = frame }
            guard frame == previous else { return false }
            stable = frame
            return true
        }
        return try #require(stable)
    }
}
