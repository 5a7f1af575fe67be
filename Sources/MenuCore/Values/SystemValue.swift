/// A value the daemon reads from a system service and sets through it, as the
/// value nodes of a `children-from` group of that service do: the service is the
/// truth, the node shows what it says, and a user's change is handed to it.
public struct SystemValue: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// power-profiles-daemon's active profile, a choice of the profiles it offers.
        case powerProfile = "power-profile"
        /// Whether the Bluetooth adapter is powered.
        case bluetoothPower = "bluetooth-power"
        /// Whether the Bluetooth device whose address is the key is connected.
        case bluetoothConnected = "bluetooth-connected"
        /// Whether NetworkManager's Wi-Fi radio is on.
        case wifiRadio = "wifi-radio"
        /// Whether the network or VPN whose row id is the key is connected.
        case networkConnected = "network-connected"
    }

    public var kind: Kind
    /// Which one of the service's things it is, for a kind the service has many of
    /// (a device's address); empty for a kind it has one of.
    public var key: String

    public init(_ kind: Kind, key: String = "") {
        self.kind = kind
        self.key = key
    }

    public static let powerProfile = SystemValue(.powerProfile)
}
