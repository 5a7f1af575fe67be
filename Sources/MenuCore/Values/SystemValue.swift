/// A value the daemon reads from a system service and sets through it, as the
/// value nodes of a `children-from` group of that service do: the service is the
/// truth, the node shows what it says, and a user's change is handed to it.
public enum SystemValue: String, Sendable, Hashable, CaseIterable {
    /// power-profiles-daemon's active profile, a choice of the profiles it offers.
    case powerProfile = "power-profile"
}
