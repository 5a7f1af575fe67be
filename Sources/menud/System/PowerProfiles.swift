import Logging
import MenuBus
import MenuCore

/// power-profiles-daemon (`net.hadess.PowerProfiles`): the profiles it offers as a
/// choice of the active one. Follows `PropertiesChanged` for a change made by
/// anyone (a hotkey, `powerprofilesctl`, another menu) and `NameOwnerChanged` for
/// the daemon stopping and starting again; a pick sets `ActiveProfile`.
final class PowerProfiles: SystemProvider {
    static let values: [SystemValue.Kind] = [.powerProfile]
    static let sources: [ChildrenSource] = [.powerProfiles]
    static let name = "net.hadess.PowerProfiles"
    static let path = "/net/hadess/PowerProfiles"
    static let missing = "power-profiles-daemon is not running"

    var onChange: ((_ childrenChanged: Bool) -> Void)?
    private let logger: Logger
    private let link = ServiceLink(service: PowerProfiles.name)
    private var bus: BusConnection? { link.bus }
    private var state = State.unknown

    private enum State: Equatable {
        case unknown
        case serving(profiles: [String], active: String)
        case failing(SourceFailure)
    }

    init(logger: Logger) {
        self.logger = logger
    }

    func start(on bus: BusConnection) {
        link.start(
            on: bus,
            match: { bus in
                bus.onPropertiesChanged(of: Self.name, path: Self.path, interface: Self.name) {
                    [weak self] _, changed, invalidated in
                    self?.heard(changed, invalidated: invalidated)
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
    }

    func reading(of value: SystemValue) -> Result<String, SourceFailure>? {
        switch state {
        case .unknown: nil
        case .serving(_, let active): .success(active)
        case .failing(let failure): .failure(failure)
        }
    }

    func apply(_ new: Value, to value: SystemValue) {
        guard let bus, case .choice(let profile) = new else { return }
        bus.setProperty(
            of: Self.name, path: Self.path, interface: Self.name, name: "ActiveProfile", to: .string(profile)
        ) { [weak self] answer in
            guard let self, case .failure(let error) = answer else { return }
            self.logger.warning("power-profiles: could not set '\(LogText.cut(profile))': \(error)")
            // The node goes back to the profile the daemon has.
            self.onChange?(false)
        }
    }

    func children(for source: ChildrenSource) -> [NodeSpec]? {
        switch state {
        case .unknown: return nil
        case .failing(let failure): return [.errorRow(failure.message)]
        case .serving(let profiles, let active):
            return [
                NodeSpec(
                    id: "profile", kind: .choice, title: TitleTemplate(literal: "Profile"),
                    children: profiles.map {
                        NodeSpec(id: $0, kind: .option, title: TitleTemplate(literal: Self.title(of: $0)))
                    },
                    rule: .choice(options: profiles), value: .choice(active),
                    source: ValueSource(system: .powerProfile))
            ]
        }
    }

    /// `power-saver` as "Power saver".
    static func title(of profile: String) -> String {
        let words = profile.split(separator: "-").joined(separator: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }

    private func readAll() {
        guard let bus else { return }
        let read = link.newRead()
        bus.allProperties(of: Self.name, path: Self.path, interface: Self.name) { [weak self] answer in
            guard let self, self.link.isCurrent(read) else { return }
            switch answer {
            case .success(let properties): self.take(properties, replacing: true)
            case .failure(let error) where error.isMissingService: self.fail(Self.missing)
            case .failure(let error): self.fail("power-profiles-daemon: \(error)")
            }
        }
    }

    private func heard(_ changed: [String: BusValue], invalidated: [String]) {
        guard bus != nil else { return }
        if !invalidated.isEmpty { return readAll() }
        guard case .serving = state else { return readAll() }
        take(changed, replacing: false)
    }

    /// Takes the properties read (all of them) or changed (some).
    private func take(_ properties: [String: BusValue], replacing: Bool) {
        var profiles: [String]?
        var active: String?
        if case .serving(let p, let a) = state, !replacing {
            profiles = p
            active = a
        }
        if let value = properties["Profiles"] {
            guard let list = value.elements?.compactMap({ $0.entries?["Profile"]?.text }), !list.isEmpty,
                Set(list).count == list.count, list.allSatisfy(NodeID.isValid)
            else { return fail("power-profiles-daemon offers no profiles menud can show") }
            profiles = list
        }
        if let value = properties["ActiveProfile"] {
            guard let text = value.text else {
                return fail("power-profiles-daemon answered an ActiveProfile that is no text")
            }
            active = text
        }
        guard let profiles, let active, profiles.contains(active) else {
            return fail("power-profiles-daemon's active profile is not one it offers")
        }
        let new = State.serving(profiles: profiles, active: active)
        guard new != state else { return }
        if case .failing = state { logger.info("power-profiles: the daemon answers again") }
        // The choice's options are the children; its value is read apart.
        var childrenChanged = true
        if case .serving(let old, _) = state { childrenChanged = old != profiles }
        state = new
        onChange?(childrenChanged)
    }

    /// One log line per cause: the same failure again is not told again.
    private func fail(_ message: String) {
        if case .failing(let old) = state, old.message == message { return }
        logger.warning("power-profiles: \(message)")
        state = .failing(SourceFailure(message, logged: true))
        onChange?(true)
    }
}
