/// Following who owns a well-known name: a system service that stops, crashes or
/// starts again changes its name's owner, and the bus says so.
extension BusConnection {
    /// Hears each change of `name`'s owner: its new unique name, or nil when it has
    /// none (the service went away).
    public func onNameOwnerChanged(_ name: String, _ handler: @escaping (_ owner: String?) -> Void) {
        onSignal(
            sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "NameOwnerChanged"
        ) { message in
            do throws(BusError) {
                guard try message.readValue().text == name else { return }
                _ = try message.readValue()
                let owner = try message.readValue().text ?? ""
                handler(owner.isEmpty ? nil : owner)
            } catch {
                return
            }
        }
    }
}
