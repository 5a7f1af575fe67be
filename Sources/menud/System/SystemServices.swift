import Logging
import MenuBus
import MenuCore
import MenuLoop

/// The system services part: one ``SystemProvider`` per service, started while the
/// menu has a node or group that shows it and stopped when none does, on one
/// connection to the system bus opened when the first starts. Menus that show no
/// system service never connect.
final class SystemServices {
    /// Told when a provider's readings changed, for the value nodes that show them.
    var onReadings: (() -> Void)?
    /// Told when a provider's children changed, with the sources they fill.
    var onChildren: ((_ sources: [ChildrenSource]) -> Void)?

    let logger: Logger
    private let loop: EventLoop
    private var bus: BusConnection?
    /// Every provider, each once, made when first wanted.
    private var providers: [ObjectIdentifier: any SystemProvider] = [:]
    private var started: Set<ObjectIdentifier> = []
    /// What the value nodes and the groups want, followed apart.
    private var wantedValues: Set<SystemValue> = []
    private var wantedSources: Set<ChildrenSource> = []

    init(loop: EventLoop, logger: Logger) {
        self.loop = loop
        self.logger = logger
    }

    /// The provider type of each value and source.
    private static func kind(of value: SystemValue) -> any SystemProvider.Type {
        switch value {
        case .powerProfile: PowerProfiles.self
        }
    }

    private static func kind(of source: ChildrenSource) -> (any SystemProvider.Type)? {
        switch source {
        case .applications: nil
        case .powerProfiles: PowerProfiles.self
        }
    }

    /// Follows the values that the model's nodes read now.
    func follow(values: Set<SystemValue>) {
        guard values != wantedValues else { return }
        wantedValues = values
        follow()
    }

    /// Follows the sources that the model's groups show now.
    func follow(sources: Set<ChildrenSource>) {
        let sources = sources.filter { Self.kind(of: $0) != nil }
        guard sources != wantedSources else { return }
        wantedSources = sources
        follow()
    }

    /// Whether `source` is one of a system service's.
    static func provides(_ source: ChildrenSource) -> Bool { kind(of: source) != nil }

    private func follow() {
        var wanted: [ObjectIdentifier: any SystemProvider.Type] = [:]
        for value in wantedValues { wanted[ObjectIdentifier(Self.kind(of: value))] = Self.kind(of: value) }
        for source in wantedSources {
            if let kind = Self.kind(of: source) { wanted[ObjectIdentifier(kind)] = kind }
        }
        for id in started where wanted[id] == nil {
            providers[id]?.stop()
            started.remove(id)
        }
        guard !wanted.isEmpty else {
            bus?.close()
            bus = nil
            return
        }
        guard let bus = connection() else { return }
        for (id, kind) in wanted where !started.contains(id) {
            let provider = providers[id] ?? make(kind)
            providers[id] = provider
            started.insert(id)
            provider.start(on: bus)
        }
    }

    private func make(_ kind: any SystemProvider.Type) -> any SystemProvider {
        let provider = kind.init(logger: logger)
        provider.onChange = { [weak self] in self?.changed(kind) }
        return provider
    }

    private func changed(_ kind: any SystemProvider.Type) {
        if !kind.values.isEmpty { onReadings?() }
        if !kind.sources.isEmpty { onChildren?(kind.sources) }
    }

    /// The system bus, connected now if it is not; nil, logged once, when there is
    /// none, and every value and group says so.
    private func connection() -> BusConnection? {
        if let bus, !bus.isClosed { return bus }
        do throws(BusError) {
            let bus = try BusConnection(systemBusOn: loop)
            bus.onDisconnect = { [weak self] error in self?.lost(error) }
            self.bus = bus
            return bus
        } catch {
            if !busMissing { logger.warning("system: no system bus: \(error)") }
            busMissing = true
            return nil
        }
    }
    private var busMissing = false

    /// The bus went away: every provider is stopped, and says so, until the menu is
    /// followed again (a reload).
    private func lost(_ error: BusError) {
        logger.warning("system: the system bus went away: \(error)")
        for id in started { providers[id]?.stop() }
        started = []
        bus = nil
        onReadings?()
        onChildren?(Array(wantedSources))
        wantedValues = []
        wantedSources = []
    }

    /// What `value` reads now (``SystemProvider/reading(of:)``).
    func reading(of value: SystemValue) -> Result<String, SourceFailure>? {
        guard let provider = startedProvider(Self.kind(of: value)) else {
            return .failure(SourceFailure("the system bus is not there"))
        }
        return provider.reading(of: value)
    }

    /// Hands a user's change to the service that `value` is of.
    func apply(_ new: Value, to value: SystemValue) {
        startedProvider(Self.kind(of: value))?.apply(new, to: value)
    }

    /// The children of a `children-from: source` group, when a service provides them.
    func children(for source: ChildrenSource) -> [NodeSpec]? {
        guard let kind = Self.kind(of: source) else { return nil }
        guard let provider = startedProvider(kind) else {
            return [.errorRow("the system bus is not there")]
        }
        return provider.children(for: source)
    }

    private func startedProvider(_ kind: any SystemProvider.Type) -> (any SystemProvider)? {
        let id = ObjectIdentifier(kind)
        return started.contains(id) ? providers[id] : nil
    }

    func close() {
        for id in started { providers[id]?.stop() }
        started = []
        onReadings = nil
        onChildren = nil
        bus?.close()
        bus = nil
    }
}
