/// `org.freedesktop.DBus.ObjectManager`, as a client of a service that has many
/// objects (BlueZ's adapters and devices) reads and follows them: every object at
/// once, and the signals of objects and interfaces that come and go.
extension BusConnection {
    private static let objectManager = "org.freedesktop.DBus.ObjectManager"

    /// The interfaces of an object, each with its properties by name.
    public typealias Interfaces = [String: [String: BusValue]]

    /// Every object the service at `path` manages, by object path; or why they
    /// could not be had.
    public func managedObjects(
        of destination: String, path: String,
        reply: @escaping (Result<[String: Interfaces], BusReplyError>) -> Void
    ) {
        call(
            destination: destination, path: path, interface: Self.objectManager, member: "GetManagedObjects",
            arguments: []
        ) { answer in
            reply(
                answer.flatMap { message in
                    do throws(BusError) {
                        guard let entries = try message.readValue().elements else {
                            return .failure(.failed("GetManagedObjects answered no dictionary"))
                        }
                        var objects: [String: Interfaces] = [:]
                        for entry in entries {
                            guard case .structure(let pair) = entry, pair.count == 2,
                                let object = pair[0].text, let interfaces = Self.interfaces(pair[1])
                            else {
                                return .failure(
                                    .failed("GetManagedObjects answered an entry of another shape"))
                            }
                            objects[object] = interfaces
                        }
                        return .success(objects)
                    } catch {
                        return .failure(.failed("GetManagedObjects: \(error)"))
                    }
                })
        }
    }

    /// Hears `InterfacesAdded` and `InterfacesRemoved` of the service's object
    /// manager at `path`: an object's interfaces added, with their properties, or
    /// the names of those removed. A signal of another shape is passed over.
    public func onInterfacesChanged(
        of sender: String, path: String,
        added: @escaping (_ object: String, _ interfaces: Interfaces) -> Void,
        removed: @escaping (_ object: String, _ interfaces: [String]) -> Void
    ) {
        onSignal(sender: sender, path: path, interface: Self.objectManager, member: "InterfacesAdded") {
            message in
            do throws(BusError) {
                guard let object = try message.readValue().text,
                    let interfaces = Self.interfaces(try message.readValue())
                else { return }
                added(object, interfaces)
            } catch {
                return
            }
        }
        onSignal(sender: sender, path: path, interface: Self.objectManager, member: "InterfacesRemoved") {
            message in
            do throws(BusError) {
                guard let object = try message.readValue().text,
                    let names = try message.readValue().elements
                else { return }
                removed(object, names.compactMap(\.text))
            } catch {
                return
            }
        }
    }

    /// An `a{sa{sv}}` read: interfaces by name, each with its properties.
    private static func interfaces(_ value: BusValue) -> Interfaces? {
        guard let byName = value.entries else { return nil }
        var interfaces: Interfaces = [:]
        for (name, properties) in byName {
            guard let properties = properties.entries else { return nil }
            interfaces[name] = properties
        }
        return interfaces
    }
}
