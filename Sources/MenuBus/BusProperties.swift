/// `org.freedesktop.DBus.Properties`, as a client of a service reads and follows
/// its properties: the whole set at once, a change of one, and the signal that
/// tells what changed.
extension BusConnection {
    private static let properties = "org.freedesktop.DBus.Properties"

    /// Every property of `interface` on the object at `path`; `reply` hears them by
    /// name, or why they could not be had (no such service, or an answer of another
    /// shape).
    public func allProperties(
        of destination: String, path: String, interface: String,
        reply: @escaping (Result<[String: BusValue], BusReplyError>) -> Void
    ) {
        call(
            destination: destination, path: path, interface: Self.properties, member: "GetAll",
            arguments: [.string(interface)]
        ) { answer in
            reply(
                answer.flatMap { message in
                    do throws(BusError) {
                        guard let properties = try message.readValue().entries else {
                            return .failure(.failed("GetAll of \(interface) answered no dictionary"))
                        }
                        return .success(properties)
                    } catch {
                        return .failure(.failed("GetAll of \(interface): \(error)"))
                    }
                })
        }
    }

    /// Sets property `name` of `interface` on the object at `path` to `value`.
    public func setProperty(
        of destination: String, path: String, interface: String, name: String, to value: BusValue,
        reply: @escaping (Result<Void, BusReplyError>) -> Void
    ) {
        call(
            destination: destination, path: path, interface: Self.properties, member: "Set",
            arguments: [.string(interface), .string(name), .variant(value)]
        ) { answer in reply(answer.map { _ in () }) }
    }

    /// Hears `PropertiesChanged` of `interface` from the object at `path` (nil: any
    /// object): the properties that changed with their values, and the names of
    /// those that changed without them. A signal of another shape is passed over.
    public func onPropertiesChanged(
        of sender: String?, path: String?, interface: String,
        _ handler: @escaping (_ path: String, _ changed: [String: BusValue], _ invalidated: [String]) -> Void
    ) {
        onSignal(sender: sender, path: path, interface: Self.properties, member: "PropertiesChanged") {
            message in
            do throws(BusError) {
                guard try message.readValue().text == interface, let changed = try message.readValue().entries
                else { return }
                let invalidated =
                    message.isAtEnd ? [] : (try message.readValue().elements ?? []).compactMap(\.text)
                handler(message.path ?? "", changed, invalidated)
            } catch {
                return
            }
        }
    }
}
