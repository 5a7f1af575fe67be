/// What activating a node did, so the daemon knows whether it has a command to run.
/// The model itself never runs anything.
public enum Activation: Sendable, Hashable {
    /// A group or choice opened or closed.
    case toggled
    /// A toggle flipped.
    case flipped
    /// A choice's option was picked and the choice collapsed.
    case picked
    /// An item: the daemon should run this command.
    case run(command: String)
    /// An item without a command.
    case none
    /// The No of a confirmation: its item's command was not run, and the question closed.
    case declined
}
