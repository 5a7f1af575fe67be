import MenuBus

/// A provider's hold on its service over the bus: the connection while the
/// provider's groups are shown, its signal matches, and the generation of reads.
///
/// A match lasts as long as the connection, so a provider stopped and started
/// again on the same connection matches once. Answers to a read made before the
/// latest read, start or stop are passed over.
final class ServiceLink {
    let service: String
    private(set) var bus: BusConnection?
    private weak var matched: BusConnection?
    private var generation = 0

    init(service: String) {
        self.service = service
    }

    /// Holds `bus`. On a connection not matched yet, `match` adds the provider's
    /// own matches, and `owner` hears the service's name change owner (`nil`: it
    /// went away) for as long as the link holds a connection.
    func start(
        on bus: BusConnection, match: (BusConnection) -> Void, owner: @escaping (String?) -> Void
    ) {
        self.bus = bus
        guard matched !== bus else { return }
        matched = bus
        match(bus)
        bus.onNameOwnerChanged(service) { [weak self] new in
            guard self?.bus != nil else { return }
            owner(new)
        }
    }

    func stop() {
        bus = nil
        generation += 1
    }

    /// Starts a read that supersedes those before it; its answer is current while
    /// `isCurrent` says so.
    func newRead() -> Int {
        generation += 1
        return generation
    }

    /// The generation a read made now belongs to, without superseding any.
    var current: Int { generation }

    func isCurrent(_ read: Int) -> Bool {
        read == generation && bus != nil
    }
}
