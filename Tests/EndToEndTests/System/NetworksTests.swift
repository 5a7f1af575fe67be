import Foundation
import MenuClient
import MenuProtocol
import TestSupport
import Testing

/// `children-from: networks` against NetworkManager as python-dbusmock serves it
/// on a private system bus: the real menud, the real D-Bus protocol.
@Suite(.ownThread) struct NetworksTests {
    static let config = """
        menu:
          - id: wifi
            title: Wi-Fi
            children-from: networks
        """
    static let name = "org.freedesktop.NetworkManager"
    static let manager = "/org/freedesktop/NetworkManager"
    static let device = "/org/freedesktop/NetworkManager/Devices/wlan0"
    static let shown = [
        "wifi/radio Wi-Fi [on]", "wifi/Home Home · 80% · WPA2 [off]", "wifi/Cafe Cafe · 50% [off]",
    ]

    /// NetworkManager with one Wi-Fi device that sees a secured network, saved, and
    /// an open one.
    private func withNetworks(_ body: (MockSystemBus, TestDaemon) async throws -> Void) async throws {
        try await withMockSystemBus(template: "networkmanager", name: Self.name) { bus in
            try mock(bus, "AddWiFiDevice", "ssi", "wlan0", "wlan0", "30")
            try addAccessPoint(bus, "home", "Home", strength: 80, security: 0x100)
            try addAccessPoint(bus, "cafe", "Cafe", strength: 50, security: 0)
            try mock(bus, "AddWiFiConnection", "ssss", Self.device, "home", "Home", "wpa-psk")
            try await withConfigFile(Self.config) { config in
                try await withDaemon(config: config, environment: bus.environment) { daemon in
                    try await body(bus, daemon)
                }
            }
        }
    }

    private func mock(_ bus: MockSystemBus, _ member: String, _ arguments: String...) throws {
        try bus.call(
            destination: Self.name, path: "/org/freedesktop", interface: "org.freedesktop.DBus.Mock",
            member: member, arguments)
    }

    private func addAccessPoint(
        _ bus: MockSystemBus, _ name: String, _ ssid: String, strength: Int, security: Int
    ) throws {
        try mock(
            bus, "AddAccessPoint", "ssssuuuyu", Self.device, name, ssid, "00:11:22:33:44:\(name.count)0", "2",
            "2412", "54000", "\(strength)", "\(security)")
    }

    private func waitForCall(_ bus: MockSystemBus, _ member: String) async throws {
        try await waitUntil("\(member) called; calls:\n\(bus.calls)") { bus.calls.contains(member) }
    }

    /// The networks, strongest first: a saved one joins through its connection and
    /// leaves through `DeactivateConnection`, a new one is added and activated, and
    /// the radio is NetworkManager's `WirelessEnabled`.
    @Test func togglesJoinAndLeave() async throws {
        try await withNetworks { bus, daemon in
            try await daemon.waitForRows(below: "wifi", Self.shown)
            #expect(try daemon.request("set wifi/Home on").isOK)
            try await waitForCall(bus, "ActivateConnection")
            try await daemon.waitForRows(
                below: "wifi",
                ["wifi/radio Wi-Fi [on]", "wifi/Home Home · 80% · WPA2 [on]", "wifi/Cafe Cafe · 50% [off]"])
            #expect(!bus.calls.contains("AddAndActivateConnection"))
            #expect(try daemon.request("set wifi/Home off").isOK)
            try await waitForCall(bus, "DeactivateConnection")
            try await daemon.waitForRows(below: "wifi", Self.shown)

            #expect(try daemon.request("set wifi/Cafe on").isOK)
            try await waitForCall(bus, "AddAndActivateConnection")
            try await daemon.waitForRows(
                below: "wifi",
                ["wifi/radio Wi-Fi [on]", "wifi/Home Home · 80% · WPA2 [off]", "wifi/Cafe Cafe · 50% [on]"])

            #expect(try daemon.request("set wifi/radio off").isOK)
            try await waitUntil("the radio off; calls:\n\(bus.calls)") {
                try bus.property(path: Self.manager, interface: Self.name, "WirelessEnabled") == "b false"
            }
            try await daemon.waitForRows(
                below: "wifi",
                ["wifi/radio Wi-Fi [off]", "wifi/Home Home · 80% · WPA2 [off]", "wifi/Cafe Cafe · 50% [on]"])
        }
    }

    /// Access points that come and go change the list in place, in strength's
    /// order; a network joined by another program reaches a watcher as one value
    /// record; opening the group asks for a scan.
    @Test func outsideChangesReachAWatcher() async throws {
        try await withNetworks { bus, daemon in
            try await daemon.waitForRows(below: "wifi", Self.shown)
            #expect(!bus.calls.contains("RequestScan"))
            #expect(try daemon.request("expand wifi").isOK)
            try await waitForCall(bus, "RequestScan")

            try addAccessPoint(bus, "lab", "Lab", strength: 65, security: 0)
            try await daemon.waitForRows(
                below: "wifi",
                [
                    "wifi/radio Wi-Fi [on]", "wifi/Home Home · 80% · WPA2 [off]", "wifi/Lab Lab · 65% [off]",
                    "wifi/Cafe Cafe · 50% [off]",
                ])
            try mock(
                bus, "RemoveAccessPoint", "ss", Self.device, "/org/freedesktop/NetworkManager/AccessPoint/lab"
            )
            try await daemon.waitForRows(below: "wifi", Self.shown)

            let events = try daemon.connect()
            try events.subscribe("value")
            try bus.call(
                destination: Self.name, path: Self.manager, interface: Self.name,
                member: "ActivateConnection",
                [
                    "ooo", "/org/freedesktop/NetworkManager/Settings/home", Self.device,
                    "/org/freedesktop/NetworkManager/AccessPoint/home",
                ])
            let group = try events.readEventGroup()
            #expect(group.records.contains("value\twifi/Home\ton"), "\(group.records)")
        }
    }

    /// A saved VPN is a toggle, activated with no device.
    @Test func aVPNIsAToggle() async throws {
        try await withNetworks { bus, daemon in
            try await daemon.waitForRows(below: "wifi", Self.shown)
            try bus.call(
                destination: Self.name, path: "/org/freedesktop/NetworkManager/Settings",
                interface: "org.freedesktop.NetworkManager.Settings", member: "AddConnection",
                ["a{sa{sv}}", "1", "connection", "2", "id", "s", "Work", "type", "s", "vpn"])
            try await daemon.waitForRows(below: "wifi", Self.shown + ["wifi/vpn-Work VPN Work [off]"])
            #expect(try daemon.request("set wifi/vpn-Work on").isOK)
            try await daemon.waitForRows(below: "wifi", Self.shown + ["wifi/vpn-Work VPN Work [on]"])
            #expect(try daemon.request("set wifi/vpn-Work off").isOK)
            try await daemon.waitForRows(below: "wifi", Self.shown + ["wifi/vpn-Work VPN Work [off]"])
            try await waitUntil("no connection active; calls:\n\(bus.calls)") {
                try bus.property(path: Self.manager, interface: Self.name, "ActiveConnections") == "ao 0"
            }

            // Turned off at once, before NetworkManager has brought it up: the
            // last choice wins.
            #expect(try daemon.request("set wifi/vpn-Work on").isOK)
            #expect(try daemon.request("set wifi/vpn-Work off").isOK)
            try await waitUntil("the VPN left again; calls:\n\(bus.calls)") {
                let left = bus.calls.components(separatedBy: "DeactivateConnection").count == 3
                let active = try bus.property(path: Self.manager, interface: Self.name, "ActiveConnections")
                return left && active == "ao 0"
            }
            try await daemon.waitForRows(below: "wifi", Self.shown + ["wifi/vpn-Work VPN Work [off]"])
        }
    }

    /// A refused connection shows NetworkManager's reason as an error row and one
    /// log line; the toggle goes back, and the next change clears the row.
    @Test func aRefusalShowsTheReason() async throws {
        try await withNetworks { bus, daemon in
            try await daemon.waitForRows(below: "wifi", Self.shown)
            try bus.call(
                destination: Self.name, path: Self.manager, interface: "org.freedesktop.DBus.Mock",
                member: "AddMethod",
                [
                    "sssss", Self.name, "ActivateConnection", "ooo", "o",
                    "raise dbus.exceptions.DBusException('no secrets for Home', "
                        + "name='org.freedesktop.NetworkManager.AgentManager.NoSecrets')",
                ])
            #expect(try daemon.request("set wifi/Home on").isOK)
            try await daemon.waitForRows(
                below: "wifi",
                Self.shown + ["wifi/error Error: could not connect 'Home': no secrets for Home"])
            let lines = daemon.log.split(separator: "\n").filter { $0.contains("networks:") }
            #expect(lines.count == 1, "\(lines)")
            #expect(try daemon.request("set wifi/Cafe on").isOK)
            try await daemon.waitForRows(
                below: "wifi",
                ["wifi/radio Wi-Fi [on]", "wifi/Home Home · 80% · WPA2 [off]", "wifi/Cafe Cafe · 50% [on]"])
        }
    }

    /// An activation NetworkManager gives up on later (a passphrase missing or
    /// wrong) shows its reason as an error row and one log line.
    @Test func aFailedActivationShowsNetworkManagersReason() async throws {
        try await withNetworks { bus, daemon in
            try await daemon.waitForRows(below: "wifi", Self.shown)
            #expect(try daemon.request("set wifi/Cafe on").isOK)
            let joined = [
                "wifi/radio Wi-Fi [on]", "wifi/Home Home · 80% · WPA2 [off]", "wifi/Cafe Cafe · 50% [on]",
            ]
            try await daemon.waitForRows(below: "wifi", joined)
            let property = try bus.property(
                path: Self.device, interface: "org.freedesktop.NetworkManager.Device", "ActiveConnection")
            let active = String(property.split(separator: " ").last ?? "").trimmingCharacters(in: ["\""])
            try bus.call(
                destination: Self.name, path: active, interface: "org.freedesktop.DBus.Mock",
                member: "EmitSignal",
                [
                    "sssav", "org.freedesktop.NetworkManager.Connection.Active", "StateChanged", "uu", "2",
                    "u", "4",
                    "u", "9",
                ])
            try await daemon.waitForRows(
                below: "wifi",
                joined + ["wifi/error Error: could not connect 'Cafe': the passphrase is missing or wrong"])
            let lines = daemon.log.split(separator: "\n").filter { $0.contains("networks:") }
            #expect(lines.count == 1, "\(lines)")
            #expect(
                lines.first?.contains("could not connect 'Cafe': the passphrase is missing or wrong") == true)
        }
    }

    /// NetworkManager stopping makes one error row and one log line; started
    /// again, it is read anew.
    @Test func networkManagerThatGoesAndComesBackIsFollowed() async throws {
        try await withNetworks { bus, daemon in
            try await daemon.waitForRows(below: "wifi", Self.shown)
            await bus.stopService()
            try await daemon.waitForRows(below: "wifi", ["wifi/error Error: NetworkManager is not running"])
            #expect(try daemon.request("ping").isOK)
            try await bus.startService()
            try await daemon.waitForRows(below: "wifi", ["wifi/radio Wi-Fi [on]"])
            try mock(bus, "AddWiFiDevice", "ssi", "wlan0", "wlan0", "30")
            try addAccessPoint(bus, "cafe", "Cafe", strength: 50, security: 0)
            try await daemon.waitForRows(
                below: "wifi", ["wifi/radio Wi-Fi [on]", "wifi/Cafe Cafe · 50% [off]"])
            let lines = daemon.log.split(separator: "\n").filter { $0.contains("networks:") }
            #expect(lines.count == 2, "\(lines)")
        }
    }
}
