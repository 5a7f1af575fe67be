import Foundation
import MenuClient
import TestSupport
import Testing

/// What the daemon costs the machine while nothing happens, counted as its threads'
/// context switches (``ThreadSwitches``): a thread asleep in `epoll_wait` or on the
/// thread pool's queue switches only when something wakes it, so the count is how
/// often the daemon woke, on any machine. No time is asserted: a window only bounds
/// how long the count is taken over.
@Suite(
    .ownThread,
    .disabled(
        if: SanitizerReport.isThreadSanitizedRun,
        "ThreadSanitizer's runtime wakes a thread of its own in the daemon every 100 ms"))
struct WakeUpTests {
    private func lines(_ file: String) -> [String] {
        ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// The daemon's children that have not exited.
    private func livingChildren(of daemon: TestDaemon) -> [ProcessEntry] {
        ProcessEntry.all().filter { $0.parent == daemon.pid && $0.isLiving }
    }

    /// Waits until the daemon has gone half a second without a switch: what it did on
    /// its way up (the harness's greeting probe, the first readings, a state write) is
    /// over. A daemon that never goes quiet fails here, saying so.
    private func quiet(_ daemon: TestDaemon) async throws {
        try await waitUntil("menud to go half a second without a context switch") {
            let before = ThreadSwitches(of: daemon.pid)
            usleep(500_000)
            return before.added(by: ThreadSwitches(of: daemon.pid)) == 0
        }
    }

    /// The daemon's context switches over `window`, from quiet, with nothing sent to it.
    private func wakeUps(of daemon: TestDaemon, over window: Duration) async throws -> Int {
        try await quiet(daemon)
        let before = ThreadSwitches(of: daemon.pid)
        try await Task.sleep(for: window)
        return before.added(by: ThreadSwitches(of: daemon.pid))
    }

    /// Nothing to poll, nobody connected: the loop waits with no timer, and the daemon
    /// does not wake at all. Measured: 0 switches in 10 s, of every thread; no slack
    /// is allowed, since nothing in the daemon has a reason to wake.
    @Test func aMenuWithoutSourcesWakesNothing() async throws {
        let menu = """
            menu:
              - id: wifi
                type: toggle
                title: Wi-Fi
              - id: sound
                title: Sound
                children:
                  - id: volume
                    type: range
                    title: "Volume: {value}"
            """
        try await withConfigFile(menu) { config in
            try await withDaemon(config: config) { daemon in
                let woke = try await wakeUps(of: daemon, over: .seconds(10))
                #expect(woke == 0, "menud woke \(woke) times in 10 s with nothing to do")
            }
        }
    }

    /// System services followed over D-Bus cost nothing while they say nothing:
    /// the loop waits on the bus's socket with no timer, with every provider in use
    /// (power profiles, Bluetooth with its adapter and a device, NetworkManager with
    /// a Wi-Fi device and a network in sight). Measured: 0 switches in 10 s.
    @Test func followedSystemServicesWakeNothing() async throws {
        let menu = """
            menu:
              - id: power
                title: Power
                expanded: true
                children-from: power-profiles
              - id: bt
                title: Bluetooth
                expanded: true
                children-from: bluetooth
              - id: wifi
                title: Wi-Fi
                expanded: true
                children-from: networks
            """
        try await withMockSystemBus(template: "power_profiles_daemon", name: "net.hadess.PowerProfiles") {
            bus in
            try await bus.serve(template: "bluez5", name: "org.bluez")
            try await bus.serve(template: "networkmanager", name: "org.freedesktop.NetworkManager")
            try bus.call(
                destination: "org.bluez", path: "/", interface: "org.bluez.Mock", member: "AddAdapter",
                ["ss", "hci0", "laptop"])
            try bus.call(
                destination: "org.bluez", path: "/", interface: "org.bluez.Mock", member: "AddDevice",
                ["sss", "hci0", "11:22:33:44:55:66", "Headphones"])
            let networkManager = (
                destination: "org.freedesktop.NetworkManager", path: "/org/freedesktop",
                interface: "org.freedesktop.DBus.Mock"
            )
            try bus.call(
                destination: networkManager.destination, path: networkManager.path,
                interface: networkManager.interface, member: "AddWiFiDevice", ["ssi", "wlan0", "wlan0", "30"])
            try bus.call(
                destination: networkManager.destination, path: networkManager.path,
                interface: networkManager.interface, member: "AddAccessPoint",
                [
                    "ssssuuuyu", "/org/freedesktop/NetworkManager/Devices/wlan0", "home", "Home",
                    "00:11:22:33:44:40", "2", "2412", "54000", "80", "256",
                ])
            try await withConfigFile(menu) { config in
                try await withDaemon(config: config, environment: bus.environment) { daemon in
                    try await waitUntil("every service's rows") {
                        let tree = try daemon.request("tree").lines.joined(separator: "\n")
                        return tree.contains("power/profile") && tree.contains("11-22-33-44-55-66")
                            && tree.contains("wifi/Home")
                    }
                    let woke = try await wakeUps(of: daemon, over: .seconds(10))
                    #expect(woke == 0, "menud woke \(woke) times in 10 s following three system services")
                }
            }
        }
    }

    /// Listeners cost nothing between their lines: the loop reads their pipes only
    /// when they write. Measured: 0 switches in 10 s.
    @Test func listenersThatPrintNothingWakeNothing() async throws {
        let menu = """
            menu:
              - id: wifi
                type: toggle
                title: Wi-Fi
                value-listen: exec tail -f /dev/null
              - id: output
                type: text
                title: "Output: {value}"
                value-listen: exec tail -f /dev/null
            """
        try await withConfigFile(menu) { config in
            try await withDaemon(config: config) { daemon in
                try await waitUntil("both listeners running") {
                    // Under their supervisors, which end them with the daemon.
                    livingDescendants(of: daemon.pid).filter { $0.name == "tail" }.count == 2
                }
                let woke = try await wakeUps(of: daemon, over: .seconds(10))
                #expect(woke == 0, "menud woke \(woke) times in 10 s with two silent listeners")
                #expect(try daemon.request("get wifi").lines.first?.contains("stale") == true)
            }
        }
    }

    /// Nodes with the same interval are read from one timer: its firing is one
    /// wake-up for all of them, however many there are and whenever they joined.
    ///
    /// A run of a `value-cmd` costs wake-ups of its own (the daemon waits for the
    /// child's `exec`, then hears of its exit and the end of its output), which would
    /// hide the timer's. So the commands here keep running: each firing finds every
    /// node's run still under way and starts nothing, and what is left is the timer.
    /// The nodes join in five batches, one per reload, at five different moments of
    /// the timer's period: a timer per node would fire at five moments, five wake-ups
    /// per interval, where one timer for the interval makes one. The batches are a
    /// fifth of a second or more apart, longer than any turn of the loop here: timers
    /// that come due while the loop is busy all fire in its next turn and keep firing
    /// together, so batches closer than a turn would look like one even with a timer
    /// each.
    @Test func nodesSharingAnIntervalWakeTheDaemonOncePerInterval() async throws {
        let interval = Duration.seconds(1)
        func menu(_ nodes: Int) -> String {
            var text = "menu:\n"
            for n in 0..<nodes {
                text += """
                      - id: n\(n)
                        type: text
                        title: "N\(n): {value}"
                        interval: 1s
                        value-cmd: echo "$MENU_PATH" >> started; exec tail -f /dev/null

                    """
            }
            return text
        }
        let directory = try TempDirectory()
        let config = directory.file("menu.yaml")
        let started = directory.file("started")
        try menu(10).write(toFile: config, atomically: true, encoding: .utf8)
        try await withDaemon(config: config, arguments: ["--no-state"], directory: directory) { daemon in
            try await waitUntil("the first ten runs") { lines(started).count == 10 }
            for batch in 2...5 {
                try await Task.sleep(for: .milliseconds(200))
                try menu(10 * batch).write(toFile: config, atomically: true, encoding: .utf8)
                #expect(try daemon.request("reload").isOK)
                try await waitUntil("\(10 * batch) runs") { lines(started).count == 10 * batch }
            }
            // A run still going after 10 s is killed and started again, which costs
            // wake-ups of its own: a window in which that happened is taken again.
            let clock = ContinuousClock()
            for _ in 1...3 {
                let runs = Set(livingChildren(of: daemon).map(\.pid))
                let startedBefore = lines(started).count
                let before = ThreadSwitches(of: daemon.pid)
                let start = clock.now
                try await Task.sleep(for: .seconds(4))
                let woke = before.added(by: ThreadSwitches(of: daemon.pid))
                let intervals = (clock.now - start) / interval
                guard runs.count == 50, Set(livingChildren(of: daemon).map(\.pid)) == runs,
                    lines(started).count == startedBefore
                else { continue }
                // One wake-up per interval, measured as exactly that on a quiet machine;
                // a machine busy with other tests may preempt the daemon while it
                // runs, which adds a switch it cannot avoid. Twice the intervals, and
                // two for the reload's last work (freeing the old model on the pool),
                // is still well under the five per interval of a timer per batch.
                #expect(
                    Double(woke) <= 2 * intervals + 2,
                    "\(woke) wake-ups in \(intervals) intervals of 50 nodes' timer")
                return
            }
            Issue.record("each window saw a run killed after its 10 s and started again")
        }
        withExtendedLifetime(directory) {}
    }

    /// A child's exit is taken by the loop's thread: it wakes no thread of the pool,
    /// whose threads block the signals the daemon handles.
    @Test func aChildsExitWakesNoPoolThread() async throws {
        try await withDaemon { daemon in
            // The first job starts the pool: a state write.
            #expect(try daemon.request("save").isOK)
            func pool() -> ThreadSwitches {
                let all = ThreadSwitches(of: daemon.pid)
                return ThreadSwitches(threads: all.threads.filter { $0.key != daemon.pid })
            }
            try await waitUntil("the pool's threads asleep") {
                let threads = pool().threads.keys
                return !threads.isEmpty && threads.allSatisfy { threadState(daemon.pid, $0) == "S" }
            }
            let before = pool()
            for _ in 0..<10 {
                #expect(
                    try daemon.request("activate power/session/lock").lines.first?.hasPrefix("ran") == true)
            }
            try await waitUntil("the ten children reaped") {
                !ProcessEntry.all().contains { $0.parent == daemon.pid }
            }
            let woke = before.added(by: pool())
            #expect(woke == 0, "the pool's threads woke \(woke) times for ten children's exits")
        }
    }
}
