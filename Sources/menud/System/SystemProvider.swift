import Logging
import MenuBus
import MenuCore

/// One system service that menud follows over D-Bus, for the `children-from`
/// groups that show it and the value nodes in them (``SystemValue``): one
/// implementation per service, each in a file of its own. It follows the service's
/// signals while it is started, never polls, and tells ``onChange`` when what it
/// reads changed. Everything runs on the daemon's loop.
protocol SystemProvider: AnyObject {
    /// The values it reads and sets.
    static var values: [SystemValue.Kind] { get }
    /// The `children-from` sources it fills.
    static var sources: [ChildrenSource] { get }
    /// A provider, stopped, that logs to `logger`.
    init(logger: Logger)
    /// Told when its readings changed, and whether its children did too.
    var onChange: ((_ childrenChanged: Bool) -> Void)? { get set }
    /// Starts following the service on `bus`: its signals, then its state.
    func start(on bus: BusConnection)
    /// Stops following it; its readings are forgotten.
    func stop()
    /// What `value` reads now: nil until the service has answered, a failure while
    /// it is not there or answers nonsense.
    func reading(of value: SystemValue) -> Result<String, SourceFailure>?
    /// Hands a user's change of `value` to the service. A refusal is logged, and
    /// the node goes back to what the service says.
    func apply(_ new: Value, to value: SystemValue)
    /// The children of a `children-from: source` group: nil until the service has
    /// answered, one error row while it is not there.
    func children(for source: ChildrenSource) -> [NodeSpec]?
    /// The groups of its sources that are open now (expanded, and in the rows): a
    /// service that does something while the user looks (a Bluetooth scan) starts
    /// and stops it here.
    func opened(_ sources: Set<ChildrenSource>)
}

extension SystemProvider {
    func opened(_ sources: Set<ChildrenSource>) {}
}
