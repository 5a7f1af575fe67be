import Foundation
import MenuClient
import MenuProtocol
import TestSupport
import Testing

/// `children-from: bluetooth` against BlueZ as python-dbusmock serves it on a
/// private system bus: the real menud, the real D-Bus protocol.
@Suite(.ownThread) struct BluetoothTests {
    static let config = """
        menu:
          - id: bt
            title: Bluetooth
            children-from: bluetooth
        """
    static let name = "org.bluez"
    static let adapter = "/org/bluez/hci0"
    static let headphones = "/org/bluez/hci0/dev_11_22_33_44_55_66"

    /// BlueZ with one adapter and a paired pair of headphones.
    private func withBluetooth(_ body: (MockSystemBus, TestDaemon) async throws -> Void) async throws {
        try await withMockSystemBus(template: "bluez5", name: Self.name) { bus in
            try mock(bus, "AddAdapter", "ss", "hci0", "laptop")
            try mock(bus, "AddDevice", "sss", "hci0", "11:22:33:44:55:66", "Headphones")
            try mock(bus, "PairDevice", "ssi", "hci0", "11:22:33:44:55:66", "0")
            try await withConfigFile(Self.config) { config in
                try await withDaemon(config: config, environment: bus.environment) { daemon in
                    try await body(bus, daemon)
                }
            }
        }
    }

    private func mock(_ bus: MockSystemBus, _ member: String, _ arguments: String...) throws {
        try bus.call(
            destination: Self.name, path: "/", interface: "org.bluez.Mock", member: member, arguments)
    }

    /// The rows with the adapter and the headphones as told.
    static func shown(power: String = "on", headphones: String = "Headphones [off]") -> [String] {
        ["bt/power Power [\(power)]", "bt/11-22-33-44-55-66 \(headphones)", "bt/scan Scan"]
    }
    static let shown = shown()

    /// The adapter's power and the paired devices are toggles; turning them on and
    /// off makes BlueZ's calls: `Set Powered`, `Connect`, `Disconnect`.
    @Test func togglesMakeBlueZsCalls() async throws {
        try await withBluetooth { bus, daemon in
            try await daemon.waitForRows(below: "bt", Self.shown)
            #expect(try daemon.request("set bt/11-22-33-44-55-66 on").isOK)
            try await waitUntil("Connect called; calls:\n\(bus.calls)") {
                bus.calls.contains("Connect")
            }
            try await daemon.waitForRows(below: "bt", Self.shown(power: "on", headphones: "Headphones [on]"))
            #expect(try daemon.request("set bt/11-22-33-44-55-66 off").isOK)
            try await waitUntil("Disconnect called; calls:\n\(bus.calls)") {
                bus.calls.contains("Disconnect")
            }
            #expect(try daemon.request("set bt/power off").isOK)
            try await waitUntil("the adapter powered off; calls:\n\(bus.calls)") {
                try bus.property(path: Self.adapter, interface: "org.bluez.Adapter1", "Powered") == "b false"
            }
            try await daemon.waitForRows(
                below: "bt", Self.shown(power: "off", headphones: "Headphones [off]"))
        }
    }

    /// A device connected by another program, and its battery, reach a watching
    /// client: one value record for the connection, the row for the battery.
    @Test func anOutsideConnectionAndBatteryReachAWatcher() async throws {
        try await withBluetooth { bus, daemon in
            try await daemon.waitForRows(below: "bt", Self.shown)
            let events = try daemon.connect()
            try events.subscribe("value")
            try bus.call(
                destination: Self.name, path: Self.headphones, interface: "org.bluez.Device1",
                member: "Connect",
                [])
            let group = try events.readEventGroup()
            #expect(group.records.contains("value\tbt/11-22-33-44-55-66\ton"), "\(group.records)")

            try bus.call(
                destination: Self.name, path: Self.headphones, interface: "org.freedesktop.DBus.Mock",
                member: "AddProperties", ["sa{sv}", "org.bluez.Battery1", "1", "Percentage", "y", "80"])
            try bus.setProperty(
                path: Self.headphones, interface: "org.bluez.Battery1", "Percentage", "y", "75")
            try await daemon.waitForRows(
                below: "bt", Self.shown(power: "on", headphones: "Headphones · 75% [on]"))
        }
    }

    /// Opening Scan starts discovery and closing it stops it; a device found is
    /// listed there, and turning it on pairs, trusts and connects it, after which it
    /// is one of the paired devices.
    @Test func scanListsNewDevicesWhileOpenAndPairsThem() async throws {
        try await withBluetooth { bus, daemon in
            try await daemon.waitForRows(below: "bt", Self.shown)
            // Scan in the rows and expanded: `bt` closed hides it, and discovers nothing.
            #expect(try daemon.request("expand bt/scan").isOK)
            #expect(try daemon.request("ping").isOK)
            #expect(!bus.calls.contains("StartDiscovery"))
            #expect(try daemon.request("expand bt").isOK)
            try await waitUntil("discovery started; calls:\n\(bus.calls)") {
                bus.calls.contains("StartDiscovery")
            }
            try mock(bus, "AddDevice", "sss", "hci0", "AA:BB:CC:DD:EE:FF", "Speaker")
            try await daemon.waitForRows(
                below: "bt", Self.shown + ["bt/scan/AA-BB-CC-DD-EE-FF Speaker [off]"])

            #expect(try daemon.request("set bt/scan/AA-BB-CC-DD-EE-FF on").isOK)
            try await daemon.waitForRows(
                below: "bt",
                [
                    "bt/power Power [on]", "bt/11-22-33-44-55-66 Headphones [off]",
                    "bt/AA-BB-CC-DD-EE-FF Speaker [on]", "bt/scan Scan",
                ])
            let calls = bus.calls
            #expect(calls.contains("Pair"), "\(calls)")
            #expect(calls.contains("Trusted"), "\(calls)")
            #expect(calls.contains("Connect"), "\(calls)")

            #expect(!calls.contains("StopDiscovery"))
            #expect(try daemon.request("collapse bt/scan").isOK)
            try await waitUntil("discovery stopped; calls:\n\(bus.calls)") {
                bus.calls.contains("StopDiscovery")
            }
        }
    }

    /// A refused connection is one log line, and the toggle goes back.
    @Test func aRefusedConnectionGoesBack() async throws {
        try await withBluetooth { bus, daemon in
            try await daemon.waitForRows(below: "bt", Self.shown)
            // Connected by another program, then said disconnected by a property's
            // change alone: the mock still counts it connected, and refuses Connect.
            try bus.call(
                destination: Self.name, path: Self.headphones, interface: "org.bluez.Device1",
                member: "Connect",
                [])
            try await daemon.waitForRows(below: "bt", Self.shown(power: "on", headphones: "Headphones [on]"))
            try bus.setProperty(
                path: Self.headphones, interface: "org.bluez.Device1", "Connected", "b", "false")
            try await daemon.waitForRows(below: "bt", Self.shown)
            #expect(try daemon.request("set bt/11-22-33-44-55-66 on").isOK)
            try await waitUntil("the refusal logged; log:\n\(daemon.log)") {
                daemon.log.contains("bluetooth: could not connect 'Headphones'")
            }
            try await daemon.waitForRows(below: "bt", Self.shown)
            #expect(try daemon.request("ping").isOK)
        }
    }

    /// BlueZ stopping makes one error row and one log line; started again, it is
    /// read anew, and an empty BlueZ says there is no adapter.
    @Test func blueZThatGoesAndComesBackIsFollowed() async throws {
        try await withBluetooth { bus, daemon in
            try await daemon.waitForRows(below: "bt", Self.shown)
            await bus.stopService()
            try await daemon.waitForRows(below: "bt", ["bt/error Error: BlueZ is not running"])
            #expect(try daemon.request("ping").isOK)
            try await bus.startService()
            try await daemon.waitForRows(below: "bt", ["bt/error Error: there is no Bluetooth adapter"])
            try mock(bus, "AddAdapter", "ss", "hci0", "laptop")
            try await daemon.waitForRows(below: "bt", ["bt/power Power [on]", "bt/scan Scan"])
            let lines = daemon.log.split(separator: "\n").filter { $0.contains("bluetooth:") }
            #expect(lines.count == 2, "\(lines)")
        }
    }
}
