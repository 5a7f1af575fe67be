/// A D-Bus error as a method call's answer: a name such as
/// `org.freedesktop.DBus.Error.InvalidArgs` and a message for whoever called.
public struct BusReplyError: Error, Sendable, Equatable, CustomStringConvertible {
    public var name: String
    public var message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    /// The caller's arguments name something that is not there or cannot be done.
    public static func invalidArguments(_ message: String) -> BusReplyError {
        BusReplyError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message)
    }

    /// The call was understood but did not succeed.
    public static func failed(_ message: String) -> BusReplyError {
        BusReplyError(name: "org.freedesktop.DBus.Error.Failed", message: message)
    }

    /// The service called is not on the bus: not running, or not installed.
    public var isMissingService: Bool {
        name == "org.freedesktop.DBus.Error.ServiceUnknown"
            || name == "org.freedesktop.DBus.Error.NameHasNoOwner"
    }

    public var description: String { "\(name): \(message)" }
}
