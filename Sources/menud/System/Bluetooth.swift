import Logging
import MenuBus
import MenuCore

/// BlueZ (`org.bluez`): the first adapter's power as a toggle, each paired device
/// as a toggle of its connection (its battery in the title where BlueZ has one),
/// and a Scan group that lists the devices found while it is open, each paired and
/// connected when turned on. Follows the object manager's objects coming and going
/// and `PropertiesChanged` of the adapter, the devices and their batteries, so that
/// a device connected by anyone (its own button, `bluetoothctl`) shows at once.
final class Bluetooth: SystemProvider {
    static let values: [SystemValue.Kind] = [.bluetoothPower, .bluetoothConnected]
    static let sources: [ChildrenSource] = [.bluetooth, .bluetoothScan]
    static let name = "org.bluez"
    static let missing = "BlueZ is not running"
    static let noAdapter = "there is no Bluetooth adapter"
    private static let adapterInterface = "org.bluez.Adapter1"
    private static let deviceInterface = "org.bluez.Device1"
    private static let batteryInterface = "org.bluez.Battery1"

    var onChange: ((_ childrenChanged: Bool) -> Void)?
    private let logger: Logger
    private let link = ServiceLink(service: Bluetooth.name)
    private var bus: BusConnection? { link.bus }
    private var state = State.unknown
    /// The adapters and devices by object path, as BlueZ tells them.
    private var adapters: [String: Adapter] = [:]
    private var devices: [String: Device] = [:]
    /// The adapter that menud asked to discover: BlueZ discovers for as long as some
    /// client asks, and stops for a client that goes away.
    private var discovering: String?
    private var scanOpen = false

    private enum State: Equatable {
        case unknown
        case serving
        case failing(SourceFailure)
    }

    struct Adapter: Equatable {
        var powered = false
    }

    struct Device: Equatable {
        var adapter = ""
        var address = ""
        var name = ""
        var paired = false
        var connected = false
        var battery: Int?
    }

    /// What the children show, compared to tell whether they changed: the values
    /// (power, connections) are read apart.
    private struct Shown: Equatable {
        var adapter: String?
        var devices: [Device]
    }

    init(logger: Logger) {
        self.logger = logger
    }

    func start(on bus: BusConnection) {
        link.start(
            on: bus,
            match: { bus in
                bus.onInterfacesChanged(
                    of: Self.name, path: "/",
                    added: { [weak self] object, interfaces in self?.added(object, interfaces) },
                    removed: { [weak self] object, names in self?.removed(object, names) })
                for interface in [Self.adapterInterface, Self.deviceInterface, Self.batteryInterface] {
                    bus.onPropertiesChanged(of: Self.name, path: nil, interface: interface) {
                        [weak self] path, changed, invalidated in
                        self?.heard(interface, of: path, changed, invalidated: invalidated)
                    }
                }
            },
            owner: { [weak self] owner in
                guard let self else { return }
                self.discovering = nil
                if owner == nil { self.fail(Self.missing) } else { self.readAll() }
            })
        readAll()
    }

    func stop() {
        stopDiscovery()
        link.stop()
        state = .unknown
        adapters = [:]
        devices = [:]
        scanOpen = false
    }

    /// The adapter menud shows: the first, when there are several.
    private var adapter: String? { adapters.keys.min() }

    func reading(of value: SystemValue) -> Result<String, SourceFailure>? {
        switch state {
        case .unknown: return nil
        case .failing(let failure): return .failure(failure)
        case .serving: break
        }
        switch value.kind {
        case .bluetoothPower:
            guard let adapter, let powered = adapters[adapter]?.powered else {
                return .failure(SourceFailure(Self.noAdapter, logged: true))
            }
            return .success(powered ? "on" : "off")
        case .bluetoothConnected:
            guard let device = device(value.key)?.device else { return nil }
            return .success(device.connected ? "on" : "off")
        default:
            return nil
        }
    }

    func apply(_ new: Value, to value: SystemValue) {
        guard let bus, case .toggle(let on) = new else { return }
        switch value.kind {
        case .bluetoothPower:
            guard let adapter else {
                onChange?(false)
                return
            }
            bus.setProperty(
                of: Self.name, path: adapter, interface: Self.adapterInterface, name: "Powered", to: .bool(on)
            ) { [weak self] answer in
                if case .failure(let error) = answer { self?.refused("power \(on ? "on" : "off")", error) }
            }
        case .bluetoothConnected:
            guard let (path, device) = device(value.key) else {
                onChange?(false)
                return
            }
            let what = "\(on ? "connect" : "disconnect") '\(LogText.cut(device.name))'"
            if !on { return call("Disconnect", on: path, what) }
            guard !device.paired else { return call("Connect", on: path, what) }
            // A new device: paired first (one that needs no PIN), trusted so that it
            // may connect again by itself, then connected.
            call("Pair", on: path, "pair '\(LogText.cut(device.name))'") { [weak self] in
                guard let self, let bus = self.bus else { return }
                bus.setProperty(
                    of: Self.name, path: path, interface: Self.deviceInterface, name: "Trusted",
                    to: .bool(true)
                ) { _ in }
                self.call("Connect", on: path, what)
            }
        default:
            return
        }
    }

    private func call(_ member: String, on path: String, _ what: String, then: (() -> Void)? = nil) {
        bus?.call(
            destination: Self.name, path: path, interface: Self.deviceInterface, member: member, arguments: []
        ) { [weak self] answer in
            switch answer {
            case .success: then?()
            case .failure(let error): self?.refused(what, error)
            }
        }
    }

    /// A call BlueZ refused: logged, and the toggle goes back to what BlueZ says.
    private func refused(_ what: String, _ error: BusReplyError) {
        logger.warning("bluetooth: could not \(what): \(error)")
        onChange?(false)
    }

    private func device(_ address: String) -> (path: String, device: Device)? {
        devices.first { $0.value.address == address && $0.value.adapter == adapter }.map {
            ($0.key, $0.value)
        }
    }

    func children(for source: ChildrenSource) -> [NodeSpec]? {
        switch state {
        case .unknown: return nil
        case .failing(let failure): return [.errorRow(failure.message)]
        case .serving: break
        }
        guard adapter != nil else { return [.errorRow(Self.noAdapter)] }
        let shown = self.shown.devices
        if source == .bluetoothScan { return shown.filter { !$0.paired }.map(Self.toggle) }
        return [
            NodeSpec(
                id: "power", kind: .toggle, title: TitleTemplate(literal: "Power"), rule: .toggle,
                value: .toggle(adapters[adapter!]?.powered ?? false),
                source: ValueSource(system: SystemValue(.bluetoothPower)))
        ] + shown.filter(\.paired).map(Self.toggle) + [
            NodeSpec(
                id: "scan", kind: .group, title: TitleTemplate(literal: "Scan"), children: [.loadingRow],
                childrenFrom: .bluetoothScan)
        ]
    }

    /// A device as the toggle of its connection, named by its address.
    private static func toggle(_ device: Device) -> NodeSpec {
        let title = device.battery.map { "\(device.name) · \($0)%" } ?? device.name
        return NodeSpec(
            id: id(of: device), kind: .toggle,
            title: TitleTemplate(literal: title), rule: .toggle, value: .toggle(device.connected),
            source: ValueSource(system: SystemValue(.bluetoothConnected, key: device.address)))
    }

    /// The adapter shown and its devices, sorted by name, then address.
    private var shown: Shown {
        guard let adapter else { return Shown(adapter: nil, devices: []) }
        let listed = devices.values.filter { $0.adapter == adapter && NodeID.isValid(Self.id(of: $0)) }
            .map { device -> Device in
                var device = device
                device.connected = false
                return device
            }
        return Shown(
            adapter: adapter, devices: listed.sorted { ($0.name, $0.address) < ($1.name, $1.address) })
    }

    private static func id(of device: Device) -> String {
        device.address.split(separator: ":", omittingEmptySubsequences: false).joined(separator: "-")
    }

    /// The Scan group opened or closed: discovery runs while it is open.
    func opened(_ sources: Set<ChildrenSource>) {
        scanOpen = sources.contains(.bluetoothScan)
        discover()
    }

    private func discover() {
        guard let bus, case .serving = state else { return }
        if scanOpen, discovering == nil, let adapter {
            discovering = adapter
            bus.call(
                destination: Self.name, path: adapter, interface: Self.adapterInterface,
                member: "StartDiscovery",
                arguments: []
            ) { [weak self] answer in
                guard let self, case .failure(let error) = answer else { return }
                self.logger.warning("bluetooth: could not scan: \(error)")
            }
        } else if !scanOpen {
            stopDiscovery()
        }
    }

    private func stopDiscovery() {
        guard let bus, let adapter = discovering else { return }
        discovering = nil
        bus.call(
            destination: Self.name, path: adapter, interface: Self.adapterInterface, member: "StopDiscovery",
            arguments: []
        ) { _ in }
    }

    private func readAll() {
        guard let bus else { return }
        let read = link.newRead()
        bus.managedObjects(of: Self.name, path: "/") { [weak self] answer in
            guard let self, self.link.isCurrent(read) else { return }
            switch answer {
            case .success(let objects):
                self.changing {
                    self.adapters = [:]
                    self.devices = [:]
                    for (object, interfaces) in objects { self.take(object, interfaces) }
                }
            case .failure(let error) where error.isMissingService: self.fail(Self.missing)
            case .failure(let error): self.fail("BlueZ: \(error)")
            }
        }
    }

    /// Runs `body`, which changes what BlueZ told, and tells what changed.
    private func changing(_ body: () -> Void) {
        let before = (state, shown, readings)
        body()
        if case .failing = state { logger.info("bluetooth: BlueZ answers again") }
        state = .serving
        let after = shown
        if before.1 != after || before.0 != state {
            onChange?(true)
        } else if before.2 != readings {
            onChange?(false)
        }
        discover()
    }

    /// The values the nodes show, compared to tell whether they changed.
    private var readings: [String] {
        [adapter.flatMap { adapters[$0] }.map { $0.powered ? "on" : "off" } ?? ""]
            + devices.values.filter { $0.adapter == adapter }.map { "\($0.address) \($0.connected)" }.sorted()
    }

    private func take(_ object: String, _ interfaces: BusConnection.Interfaces) {
        if let properties = interfaces[Self.adapterInterface] {
            var adapter = adapters[object] ?? Adapter()
            adapter.powered = properties["Powered"]?.boolean ?? adapter.powered
            adapters[object] = adapter
        }
        if let properties = interfaces[Self.deviceInterface] {
            var device = devices[object] ?? Device()
            update(&device, properties)
            devices[object] = device
        }
        if let properties = interfaces[Self.batteryInterface], var device = devices[object] {
            device.battery = properties["Percentage"]?.integer
            devices[object] = device
        }
    }

    private func update(_ device: inout Device, _ properties: [String: BusValue]) {
        if let adapter = properties["Adapter"]?.text { device.adapter = adapter }
        if let address = properties["Address"]?.text { device.address = address }
        if let name = properties["Alias"]?.text ?? properties["Name"]?.text { device.name = name }
        if device.name.isEmpty { device.name = device.address }
        if let paired = properties["Paired"]?.boolean { device.paired = paired }
        if let connected = properties["Connected"]?.boolean { device.connected = connected }
    }

    private func added(_ object: String, _ interfaces: BusConnection.Interfaces) {
        guard bus != nil, case .serving = state else { return }
        changing { take(object, interfaces) }
    }

    private func removed(_ object: String, _ names: [String]) {
        guard bus != nil, case .serving = state else { return }
        changing {
            if names.contains(Self.adapterInterface) { adapters[object] = nil }
            if names.contains(Self.deviceInterface) { devices[object] = nil }
            if names.contains(Self.batteryInterface) { devices[object]?.battery = nil }
            if adapters.isEmpty { discovering = nil }
        }
    }

    private func heard(
        _ interface: String, of object: String, _ changed: [String: BusValue], invalidated: [String]
    ) {
        guard bus != nil else { return }
        guard case .serving = state, invalidated.isEmpty else { return readAll() }
        changing {
            switch interface {
            case Self.adapterInterface:
                if let powered = changed["Powered"]?.boolean { adapters[object]?.powered = powered }
            case Self.deviceInterface:
                if var device = devices[object] {
                    update(&device, changed)
                    devices[object] = device
                }
            default:
                if let percentage = changed["Percentage"]?.integer { devices[object]?.battery = percentage }
            }
        }
    }

    /// One log line per cause (see PowerProfiles).
    private func fail(_ message: String) {
        if case .failing(let old) = state, old.message == message { return }
        logger.warning("bluetooth: \(message)")
        state = .failing(SourceFailure(message, logged: true))
        adapters = [:]
        devices = [:]
        onChange?(true)
    }
}
