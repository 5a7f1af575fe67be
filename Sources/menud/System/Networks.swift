import Logging
import MenuBus
import MenuCore

/// NetworkManager (`org.freedesktop.NetworkManager`): the Wi-Fi radio as a toggle,
/// the networks the first Wi-Fi device sees as toggles of their connection, the
/// strongest first, with strength and security in the title, and the saved VPN
/// connections as toggles. Follows the object manager's objects coming and going
/// and `PropertiesChanged` of the manager, the device, the access points and the
/// active connections, so that a network joined by anyone (`nmcli`, another
/// applet) or an access point found shows at once. The group opening asks the
/// device for a scan.
final class Networks: SystemProvider {
    static let values: [SystemValue.Kind] = [.wifiRadio, .networkConnected]
    static let sources: [ChildrenSource] = [.networks]
    static let name = "org.freedesktop.NetworkManager"
    static let missing = "NetworkManager is not running"
    private static let root = "/org/freedesktop"
    private static let managerPath = "/org/freedesktop/NetworkManager"
    private static let managerInterface = "org.freedesktop.NetworkManager"
    private static let deviceInterface = "org.freedesktop.NetworkManager.Device"
    private static let wirelessInterface = "org.freedesktop.NetworkManager.Device.Wireless"
    private static let accessPointInterface = "org.freedesktop.NetworkManager.AccessPoint"
    private static let activeInterface = "org.freedesktop.NetworkManager.Connection.Active"
    private static let savedInterface = "org.freedesktop.NetworkManager.Settings.Connection"
    private static let followed = [
        managerInterface, deviceInterface, wirelessInterface, accessPointInterface, activeInterface,
    ]
    /// The id of the radio's toggle, taken before any network's.
    private static let radioID = "radio"

    var onChange: ((_ childrenChanged: Bool) -> Void)?
    private let logger: Logger
    private let link = ServiceLink(service: Networks.name)
    private var bus: BusConnection? { link.bus }
    private var state = State.unknown
    private var radio = false
    /// The Wi-Fi devices by object path, the access points, the connections active
    /// and those saved, as NetworkManager tells them.
    private var devices: [String: Device] = [:]
    private var accessPoints: [String: AccessPoint] = [:]
    private var active: [String: Active] = [:]
    private var saved: [String: Saved] = [:]
    /// The last call NetworkManager refused, shown as an error row until the next
    /// change the user asks for.
    private var refusal: String?
    /// The saved connections and access points the user turned off while
    /// NetworkManager was still bringing them up: deactivated when they appear, so
    /// that the last choice wins.
    private var leaving: Set<String> = []
    private var open = false

    private enum State: Equatable {
        case unknown
        case serving
        case failing(SourceFailure)
    }

    struct Device: Equatable {
        var accessPoints: [String] = []
        var activeConnection = "/"
    }

    struct AccessPoint: Equatable {
        var ssid: [UInt8] = []
        var strength = 0
        var flags = 0
        var wpaFlags = 0
        var rsnFlags = 0

        /// The security shown: none for an open network.
        var security: String? {
            if rsnFlags & 0x400 != 0 { return "WPA3" }
            if rsnFlags != 0 { return "WPA2" }
            if wpaFlags != 0 { return "WPA" }
            if flags & 0x1 != 0 { return "WEP" }
            return nil
        }
    }

    struct Active: Equatable {
        var connection = "/"
        var accessPoint = "/"
        /// Whether it was ever up: a connection that goes down before is one that
        /// failed.
        var activated = false
    }

    struct Saved: Equatable {
        var id = ""
        var type = ""
        var ssid: [UInt8]?

        var isVPN: Bool { type == "vpn" || type == "wireguard" }
    }

    /// A row: a network (its strongest access point) or a VPN.
    private struct Shown: Equatable {
        var id: String
        var name: String
        var title: String
        var connected: Bool
        var network: (ssid: [UInt8], accessPoint: String)?
        var vpn: String?

        static func == (a: Shown, b: Shown) -> Bool {
            a.id == b.id && a.name == b.name && a.title == b.title && a.connected == b.connected
                && a.network?.ssid == b.network?.ssid && a.network?.accessPoint == b.network?.accessPoint
                && a.vpn == b.vpn
        }
    }

    init(logger: Logger) {
        self.logger = logger
    }

    func start(on bus: BusConnection) {
        link.start(
            on: bus,
            match: { bus in
                bus.onInterfacesChanged(
                    of: Self.name, path: Self.root,
                    added: { [weak self] object, interfaces in self?.added(object, interfaces) },
                    removed: { [weak self] object, names in self?.removed(object, names) })
                bus.onSignal(
                    sender: Self.name, path: nil, interface: Self.activeInterface, member: "StateChanged"
                ) {
                    [weak self] message in
                    do throws(BusError) {
                        let phase = try message.readUInt32()
                        let reason = try message.readUInt32()
                        self?.stateChanged(of: message.path, phase, reason: reason)
                    } catch {
                        return
                    }
                }
                for interface in Self.followed {
                    bus.onPropertiesChanged(of: Self.name, path: nil, interface: interface) {
                        [weak self] path, changed, invalidated in
                        self?.heard(interface, of: path, changed, invalidated: invalidated)
                    }
                }
            },
            owner: { [weak self] owner in
                guard let self else { return }
                if owner == nil { self.fail(Self.missing) } else { self.readAll() }
            })
        readAll()
    }

    func stop() {
        link.stop()
        state = .unknown
        forget()
        open = false
    }

    private func forget() {
        radio = false
        devices = [:]
        accessPoints = [:]
        active = [:]
        saved = [:]
        refusal = nil
        leaving = []
    }

    /// The Wi-Fi device menud shows: the first, when there are several.
    private var device: String? { devices.keys.min() }

    func reading(of value: SystemValue) -> Result<String, SourceFailure>? {
        switch state {
        case .unknown: return nil
        case .failing(let failure): return .failure(failure)
        case .serving: break
        }
        switch value.kind {
        case .wifiRadio:
            return .success(radio ? "on" : "off")
        case .networkConnected:
            guard let row = rows.first(where: { $0.id == value.key }) else { return nil }
            return .success(row.connected ? "on" : "off")
        default:
            return nil
        }
    }

    func apply(_ new: Value, to value: SystemValue) {
        guard let bus, case .toggle(let on) = new else { return }
        if refusal != nil {
            refusal = nil
            onChange?(true)
        }
        switch value.kind {
        case .wifiRadio:
            bus.setProperty(
                of: Self.name, path: Self.managerPath, interface: Self.managerInterface,
                name: "WirelessEnabled", to: .bool(on)
            ) { [weak self] answer in
                if case .failure(let error) = answer {
                    self?.refused("turn Wi-Fi \(on ? "on" : "off")", error)
                }
            }
        case .networkConnected:
            guard let row = rows.first(where: { $0.id == value.key }) else {
                onChange?(false)
                return
            }
            connect(row, on)
        default:
            return
        }
    }

    /// Joins or leaves the network or VPN of `row`: a saved connection is activated
    /// as it is, a new network is added and activated (NetworkManager asks its
    /// secret agent for a passphrase), and leaving deactivates what is active.
    private func connect(_ row: Shown, _ on: Bool) {
        let what = "\(on ? "connect" : "disconnect") '\(LogText.cut(row.name))'"
        let savedPath = row.vpn ?? row.network.flatMap { network in savedNetwork(network.ssid) }
        if !on {
            let paths = active.filter { path, connection in
                connection.connection == savedPath || connection.accessPoint == row.network?.accessPoint
                    || (row.network != nil && device.flatMap { devices[$0] }?.activeConnection == path)
            }.keys
            guard let path = paths.min() else {
                leaving.formUnion([savedPath, row.network?.accessPoint].compactMap { $0 })
                onChange?(false)
                return
            }
            return manager("DeactivateConnection", [.objectPath(path)], what)
        }
        leaving.subtract([savedPath, row.network?.accessPoint].compactMap { $0 })
        let through = row.vpn == nil ? device ?? "/" : "/"
        let accessPoint = row.network?.accessPoint ?? "/"
        if let savedPath {
            manager(
                "ActivateConnection",
                [.objectPath(savedPath), .objectPath(through), .objectPath(accessPoint)], what)
        } else {
            manager(
                "AddAndActivateConnection",
                [.dictionary(value: "a{sv}", []), .objectPath(through), .objectPath(accessPoint)], what)
        }
    }

    private func savedNetwork(_ ssid: [UInt8]) -> String? {
        saved.filter { !$0.value.isVPN && $0.value.ssid == ssid }.keys.min()
    }

    private func manager(_ member: String, _ arguments: [BusValue], _ what: String) {
        bus?.call(
            destination: Self.name, path: Self.managerPath, interface: Self.managerInterface, member: member,
            arguments: arguments
        ) { [weak self] answer in
            if case .failure(let error) = answer { self?.refused(what, error) }
        }
    }

    /// A call NetworkManager refused: logged, shown as an error row with its
    /// reason, and the toggle goes back to what NetworkManager says.
    private func refused(_ what: String, _ error: BusReplyError) {
        logger.warning("networks: could not \(what): \(error)")
        refusal = "could not \(what): \(error.message)"
        onChange?(true)
    }

    /// An active connection's `StateChanged`: one that goes down for a cause other
    /// than the user's (a missing or wrong passphrase, a timeout) shows
    /// NetworkManager's reason as the error row, whoever asked for it.
    private func stateChanged(of path: String?, _ phase: UInt32, reason: UInt32) {
        guard bus != nil, case .serving = state, let path, active[path] != nil else { return }
        if phase == Self.activated { active[path]?.activated = true }
        guard phase == Self.deactivated, let connection = active[path],
            let cause = Self.cause(of: reason, wasUp: connection.activated)
        else { return }
        let name = name(of: connection, at: path)
        logger.warning("networks: could not connect '\(LogText.cut(name))': \(cause)")
        refusal = "could not connect '\(name)': \(cause)"
        onChange?(true)
    }

    /// An active connection's name: its network's SSID, or its saved connection's.
    private func name(of connection: Active, at path: String) -> String {
        accessPoints[connection.accessPoint].map { String(decoding: $0.ssid, as: UTF8.self) }
            ?? saved[connection.connection]?.id ?? path
    }

    /// `NMActiveConnectionState`'s values menud tells apart.
    private static let activated: UInt32 = 2
    private static let deactivated: UInt32 = 4

    /// `NMActiveConnectionStateReason` in words, for the reasons that are a
    /// failure: none, the user's own disconnecting and a connection deleted are not,
    /// and a device disconnecting is only before the connection was up.
    static func cause(of reason: UInt32, wasUp: Bool) -> String? {
        switch reason {
        case 3 where !wasUp: "the device disconnected"
        case 4: "the VPN service stopped"
        case 5: "the IP configuration was invalid"
        case 6: "the connection timed out"
        case 7: "the VPN service did not start in time"
        case 8: "the VPN service did not start"
        case 9: "the passphrase is missing or wrong"
        case 10: "the login failed"
        case 12: "a connection it depends on failed"
        case 13: "the device could not be made ready"
        case 14: "the device was removed"
        default: nil
        }
    }

    func children(for source: ChildrenSource) -> [NodeSpec]? {
        switch state {
        case .unknown: return nil
        case .failing(let failure): return [.errorRow(failure.message)]
        case .serving: break
        }
        let radioRow = NodeSpec(
            id: Self.radioID, kind: .toggle, title: TitleTemplate(literal: "Wi-Fi"), rule: .toggle,
            value: .toggle(radio), source: ValueSource(system: SystemValue(.wifiRadio)))
        let rows = self.rows.map { row in
            NodeSpec(
                id: row.id, kind: .toggle, title: TitleTemplate(literal: row.title), rule: .toggle,
                value: .toggle(row.connected),
                source: ValueSource(system: SystemValue(.networkConnected, key: row.id)))
        }
        let all = [radioRow] + rows
        return refusal.map { NodeSpec.appendingErrorRow($0, to: all) } ?? all
    }

    /// The networks the device sees, each once (its strongest access point), the
    /// strongest first, then the saved VPNs by name; the first of two rows with one
    /// id wins.
    private var rows: [Shown] {
        var rows: [Shown] = []
        var taken: Set<String> = [Self.radioID, "error"]
        func add(_ row: Shown) {
            guard NodeID.isValid(row.id), taken.insert(row.id).inserted else { return }
            rows.append(row)
        }
        let device = self.device.flatMap { devices[$0] }
        let connectedPoint = device.flatMap { active[$0.activeConnection]?.accessPoint }
        let connectedSaved = device.flatMap { active[$0.activeConnection]?.connection }
        var strongest: [[UInt8]: (path: String, point: AccessPoint)] = [:]
        for path in device?.accessPoints ?? [] {
            guard let point = accessPoints[path], !point.ssid.isEmpty else { continue }
            if let best = strongest[point.ssid], (best.point.strength, path) >= (point.strength, path) {
                continue
            }
            strongest[point.ssid] = (path, point)
        }
        let connectedSSID =
            connectedPoint.flatMap { accessPoints[$0]?.ssid }
            ?? connectedSaved.flatMap { saved[$0]?.ssid }
        let networks = strongest.values.sorted { a, b in
            a.point.strength != b.point.strength
                ? a.point.strength > b.point.strength : a.point.ssid.lexicographicallyPrecedes(b.point.ssid)
        }
        for (path, point) in networks {
            let name = String(decoding: point.ssid, as: UTF8.self)
            let title = ([name, "\(point.strength)%"] + (point.security.map { [$0] } ?? [])).joined(
                separator: " · ")
            add(
                Shown(
                    id: Self.id(of: name), name: name, title: title, connected: point.ssid == connectedSSID,
                    network: (point.ssid, path), vpn: nil))
        }
        let activeSaved = Set(active.values.map(\.connection))
        for (path, vpn) in saved.filter({ $0.value.isVPN }).sorted(by: {
            ($0.value.id, $0.key) < ($1.value.id, $1.key)
        }) {
            add(
                Shown(
                    id: "vpn-" + Self.id(of: vpn.id), name: vpn.id, title: "VPN \(vpn.id)",
                    connected: activeSaved.contains(path),
                    network: nil, vpn: path))
        }
        return rows
    }

    /// A name as an id: every character an id cannot hold becomes `_`.
    private static func id(of name: String) -> String {
        String(name.map { NodeID.isValid(String($0)) ? $0 : "_" })
    }

    /// The group opened: the device is asked to scan, as a user who opens the
    /// list expects it current.
    func opened(_ sources: Set<ChildrenSource>) {
        let opening = sources.contains(.networks)
        defer { open = opening }
        guard opening, !open else { return }
        rescan()
    }

    private func rescan() {
        guard let bus, case .serving = state, let device else { return }
        bus.call(
            destination: Self.name, path: device, interface: Self.wirelessInterface, member: "RequestScan",
            arguments: [.properties([])]
        ) { [weak self] answer in
            guard let self, case .failure(let error) = answer else { return }
            self.logger.info("networks: could not scan: \(error)")
        }
    }

    private func readAll() {
        guard let bus else { return }
        let read = link.newRead()
        bus.managedObjects(of: Self.name, path: Self.root) { [weak self] answer in
            guard let self, self.link.isCurrent(read) else { return }
            switch answer {
            case .success(let objects):
                self.changing {
                    self.forget()
                    for (object, interfaces) in objects { self.take(object, interfaces) }
                }
                if self.open { self.rescan() }
            case .failure(let error) where error.isMissingService: self.fail(Self.missing)
            case .failure(let error): self.fail("NetworkManager: \(error)")
            }
        }
    }

    /// Runs `body`, which changes what NetworkManager told, and tells what changed.
    private func changing(_ body: () -> Void) {
        let before = (state, rows.map { ($0.id, $0.title) }, readings)
        body()
        if case .failing = state { logger.info("networks: NetworkManager answers again") }
        state = .serving
        let after = rows.map { ($0.id, $0.title) }
        if !before.1.elementsEqual(after, by: ==) || before.0 != state {
            onChange?(true)
        } else if before.2 != readings {
            onChange?(false)
        }
    }

    /// The values the nodes show, compared to tell whether they changed.
    private var readings: [String] {
        [radio ? "on" : "off"] + rows.map { "\($0.id) \($0.connected)" }
    }

    private func take(_ object: String, _ interfaces: BusConnection.Interfaces) {
        if let properties = interfaces[Self.managerInterface] {
            radio = properties["WirelessEnabled"]?.boolean ?? radio
        }
        if let properties = interfaces[Self.wirelessInterface] {
            var device = devices[object] ?? Device()
            update(&device, properties)
            update(&device, interfaces[Self.deviceInterface] ?? [:])
            devices[object] = device
        }
        if let properties = interfaces[Self.accessPointInterface] {
            var point = accessPoints[object] ?? AccessPoint()
            update(&point, properties)
            accessPoints[object] = point
        }
        if let properties = interfaces[Self.activeInterface] {
            var connection = active[object] ?? Active()
            update(&connection, properties)
            active[object] = connection
            let left = [connection.connection, connection.accessPoint].filter { leaving.remove($0) != nil }
            if !left.isEmpty {
                manager(
                    "DeactivateConnection", [.objectPath(object)],
                    "disconnect '\(LogText.cut(name(of: connection, at: object)))'")
            }
        }
        if interfaces[Self.savedInterface] != nil { readSaved(object) }
    }

    private func update(_ device: inout Device, _ properties: [String: BusValue]) {
        if let points = properties["AccessPoints"]?.elements {
            device.accessPoints = points.compactMap(\.text)
        }
        if let connection = properties["ActiveConnection"]?.text { device.activeConnection = connection }
    }

    private func update(_ point: inout AccessPoint, _ properties: [String: BusValue]) {
        if let ssid = properties["Ssid"]?.elements {
            point.ssid = ssid.compactMap { $0.integer.map(UInt8.init) }
        }
        if let strength = properties["Strength"]?.integer { point.strength = min(strength, 100) }
        if let flags = properties["Flags"]?.integer { point.flags = flags }
        if let flags = properties["WpaFlags"]?.integer { point.wpaFlags = flags }
        if let flags = properties["RsnFlags"]?.integer { point.rsnFlags = flags }
    }

    private func update(_ connection: inout Active, _ properties: [String: BusValue]) {
        if let saved = properties["Connection"]?.text { connection.connection = saved }
        if let point = properties["SpecificObject"]?.text { connection.accessPoint = point }
        if properties["State"]?.integer == Int(Self.activated) { connection.activated = true }
    }

    /// A saved connection's settings, which are not properties: its name, type and
    /// the SSID of a Wi-Fi one.
    private func readSaved(_ object: String) {
        let read = link.current
        bus?.call(
            destination: Self.name, path: object, interface: Self.savedInterface, member: "GetSettings",
            arguments: []
        ) { [weak self] answer in
            guard let self, self.link.isCurrent(read), case .serving = self.state else { return }
            guard case .success(let message) = answer,
                let settings = try? message.readValue().entries,
                let connection = settings["connection"]?.entries
            else { return }
            let ssid = settings["802-11-wireless"]?.entries?["ssid"]?.elements
            self.changing {
                self.saved[object] = Saved(
                    id: connection["id"]?.text ?? "", type: connection["type"]?.text ?? "",
                    ssid: ssid?.compactMap { $0.integer.map(UInt8.init) })
            }
        }
    }

    private func added(_ object: String, _ interfaces: BusConnection.Interfaces) {
        guard bus != nil, case .serving = state else { return }
        changing { take(object, interfaces) }
    }

    private func removed(_ object: String, _ names: [String]) {
        guard bus != nil, case .serving = state else { return }
        changing {
            if names.contains(Self.wirelessInterface) { devices[object] = nil }
            if names.contains(Self.accessPointInterface) { accessPoints[object] = nil }
            if names.contains(Self.activeInterface) { active[object] = nil }
            if names.contains(Self.savedInterface) { saved[object] = nil }
        }
    }

    private func heard(
        _ interface: String, of object: String, _ changed: [String: BusValue], invalidated: [String]
    ) {
        guard bus != nil else { return }
        guard case .serving = state, invalidated.isEmpty else { return readAll() }
        changing {
            switch interface {
            case Self.managerInterface:
                if object == Self.managerPath, let on = changed["WirelessEnabled"]?.boolean { radio = on }
            case Self.deviceInterface, Self.wirelessInterface:
                if devices[object] != nil { update(&devices[object]!, changed) }
            case Self.accessPointInterface:
                if accessPoints[object] != nil { update(&accessPoints[object]!, changed) }
            default:
                if active[object] != nil { update(&active[object]!, changed) }
            }
        }
    }

    /// One log line per cause (see PowerProfiles).
    private func fail(_ message: String) {
        if case .failing(let old) = state, old.message == message { return }
        logger.warning("networks: \(message)")
        state = .failing(SourceFailure(message, logged: true))
        forget()
        onChange?(true)
    }
}
