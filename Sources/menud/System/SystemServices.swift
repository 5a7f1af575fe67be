import Logging
import MenuBus
import MenuCore
import MenuLoop

/// The system services part: one ``SystemProvider`` per service, started while the
/// menu has a node or group that shows it and stopped when none does, on one
/// connection to the system bus opened when the first starts and closed when the
/// last stops. Menus that show no system service never connect.
final class SystemServices {
    /// Every provider there is: each says what it reads and fills
    /// (``SystemProvider/values``, ``SystemProvider/sources``).
    private static var kinds: [any SystemProvider.Type] {
        [PowerProfiles.self, Bluetooth.self, Networks.self]
    }

    /// Told when a provider's readings changed, for the value nodes that show them.
    var onReadings: (() -> Void)?
    /// Told when a provider's children changed, with the sources they fill.
    var onChildren: ((_ sources: [ChildrenSource]) -> Void)?

    let logger: Logger
    private let loop: EventLoop
    private var bus: BusConnection?
    /// The providers, by their place in ``kinds``, each made when first wanted.
    private var providers: [Int: any SystemProvider] = [:]
    private var started: Set<Int> = []
    /// What the value nodes and the groups show, followed apart.
    private var wantedValues: Set<SystemValue> = []
    private var wantedSources: Set<ChildrenSource> = []
    /// The groups of those sources that are open.
    private var openSources: Set<ChildrenSource> = []
    /// The log has said that there is no system bus.
    private var busMissing = false
    /// Tells what shows a service that the bus is missing.
    private var missingNotice: LoopTimer?
    /// What a value of a provider not started reads: one failure, since the bus
    /// was lost or found missing, so that its time stays the same.
    private var noBus = SourceFailure("the system bus is not there", logged: true)

    init(loop: EventLoop, logger: Logger) {
        self.loop = loop
        self.logger = logger
    }

    private static func kind(of value: SystemValue) -> Int? {
        kinds.firstIndex { $0.values.contains(value.kind) }
    }

    private static func kind(of source: ChildrenSource) -> Int? {
        kinds.firstIndex { $0.sources.contains(source) }
    }

    /// Whether `source` is one of a system service's.
    static func provides(_ source: ChildrenSource) -> Bool { kind(of: source) != nil }

    /// Follows the values that the model's nodes read now.
    func follow(values: Set<SystemValue>) {
        wantedValues = values
        follow()
    }

    /// Follows the sources that the model's groups show now.
    func follow(sources: Set<ChildrenSource>) {
        wantedSources = sources.filter(Self.provides)
        follow()
    }

    /// Tells each started provider which groups of its sources are open now.
    func follow(open sources: Set<ChildrenSource>) {
        guard sources != openSources else { return }
        openSources = sources
        for k in started.sorted() { tellOpened(k) }
    }

    private func tellOpened(_ k: Int) {
        providers[k]?.opened(openSources.intersection(Self.kinds[k].sources))
    }

    /// The sources of the providers that the groups shown follow: a provider's
    /// children may hold a group of another of its sources.
    var followedSources: [ChildrenSource] {
        Set(wantedSources.compactMap(Self.kind(of:))).sorted().flatMap { Self.kinds[$0].sources }
    }

    /// Stops the providers nothing shows, and starts those shown that are not
    /// started (again, after the bus went away or was not there).
    private func follow() {
        let wanted = Set(wantedValues.compactMap(Self.kind(of:)) + wantedSources.compactMap(Self.kind(of:)))
        for k in started.subtracting(wanted) {
            providers[k]?.stop()
            started.remove(k)
        }
        guard !wanted.isEmpty else {
            bus?.close()
            bus = nil
            return
        }
        let unstarted = wanted.subtracting(started)
        guard !unstarted.isEmpty else { return }
        guard let bus = connection() else {
            // Found missing now: what shows these services says so, once, at the
            // loop's next turn, outside the reload or splice that follows them.
            if !busMissing {
                busMissing = true
                let kinds = unstarted.map { Self.kinds[$0] }
                let notice = LoopTimer(loop: loop)
                notice.onFire = { [weak self] in
                    self?.missingNotice?.close()
                    self?.missingNotice = nil
                    self?.changed(kinds, children: true)
                }
                notice.start(after: .zero)
                missingNotice = notice
            }
            return
        }
        for k in unstarted.sorted() {
            let provider = providers[k] ?? make(k)
            started.insert(k)
            provider.start(on: bus)
            tellOpened(k)
        }
    }

    private func make(_ k: Int) -> any SystemProvider {
        let kind = Self.kinds[k]
        let provider = kind.init(logger: logger)
        provider.onChange = { [weak self] children in self?.changed([kind], children: children) }
        providers[k] = provider
        return provider
    }

    private func changed(_ kinds: [any SystemProvider.Type], children: Bool) {
        if kinds.contains(where: { !$0.values.isEmpty }) { onReadings?() }
        let sources = kinds.flatMap { $0.sources }
        if children && !sources.isEmpty { onChildren?(sources) }
    }

    /// The system bus, connected now if it is not; nil, logged once, when there is
    /// none, and every value and group says so.
    private func connection() -> BusConnection? {
        if let bus, !bus.isClosed { return bus }
        do throws(BusError) {
            let bus = try BusConnection(systemBusOn: loop)
            bus.onDisconnect = { [weak self] error in self?.lost(error) }
            self.bus = bus
            busMissing = false
            return bus
        } catch {
            if !busMissing {
                logger.warning("system: no system bus: \(error)")
                noBus = SourceFailure(noBus.message, logged: true)
            }
            return nil
        }
    }

    /// The bus went away: every provider is stopped, and every value and group that
    /// shows one says so, until the menu is followed again (a reload, a group's
    /// children arriving), which connects anew.
    private func lost(_ error: BusError) {
        logger.warning("system: the system bus went away: \(error)")
        noBus = SourceFailure(noBus.message, logged: true)
        // Said: the attempts to connect again that follow are not told again.
        busMissing = true
        for k in started { providers[k]?.stop() }
        started = []
        bus = nil
        onReadings?()
        onChildren?(wantedSources.sorted { $0.rawValue < $1.rawValue })
    }

    /// A started provider of kind `k`.
    private func provider(_ k: Int?) -> (any SystemProvider)? {
        guard let k, started.contains(k) else { return nil }
        return providers[k]
    }

    /// What `value` reads now (``SystemProvider/reading(of:)``).
    func reading(of value: SystemValue) -> Result<String, SourceFailure>? {
        guard let provider = provider(Self.kind(of: value)) else {
            return .failure(noBus)
        }
        return provider.reading(of: value)
    }

    /// Hands a user's change to the service that `value` is of.
    func apply(_ new: Value, to value: SystemValue) {
        provider(Self.kind(of: value))?.apply(new, to: value)
    }

    /// The children of a `children-from: source` group, when a service provides them.
    func children(for source: ChildrenSource) -> [NodeSpec]? {
        guard let k = Self.kind(of: source) else { return nil }
        guard let provider = provider(k) else { return [.errorRow(noBus.message)] }
        return provider.children(for: source)
    }

    func close() {
        missingNotice?.close()
        missingNotice = nil
        for k in started { providers[k]?.stop() }
        started = []
        openSources = []
        onReadings = nil
        onChildren = nil
        bus?.close()
        bus = nil
    }
}
