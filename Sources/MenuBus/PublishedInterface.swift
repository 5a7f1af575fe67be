import CSystemd

#if canImport(Glibc)
    import Glibc
#endif

/// An interface as sd-bus holds it: the table of entries, the C strings it points
/// to, and the closures its callbacks reach through their user data. sd-bus keeps
/// it, through its slot, for as long as the object is published, and releases it
/// when the slot goes (``BusConnection`` sets the slot's destroy callback).
final class PublishedInterface {
    let interface: BusInterface
    weak var connection: BusConnection?
    private(set) var table: UnsafeMutablePointer<sd_bus_vtable>
    private var strings: [UnsafeMutablePointer<CChar>] = []
    private let methods: [String: BusInterface.Method]
    private let properties: [String: BusInterface.Property]

    init(_ interface: BusInterface, connection: BusConnection) {
        self.interface = interface
        self.connection = connection
        methods = Dictionary(interface.methods.map { ($0.member, $0) }, uniquingKeysWith: { a, _ in a })
        properties = Dictionary(interface.properties.map { ($0.member, $0) }, uniquingKeysWith: { a, _ in a })
        let count = 2 + interface.methods.count + interface.properties.count + interface.signals.count
        table = .allocate(capacity: count)
        var entries: [sd_bus_vtable] = [menud_vtable_start(0)]
        for method in interface.methods {
            entries.append(
                menud_vtable_method(
                    keep(method.member), keep(method.signature), keep(method.result), Self.methodCallback,
                    UInt64(SD_BUS_VTABLE_UNPRIVILEGED)))
        }
        for property in interface.properties {
            entries.append(
                menud_vtable_property(
                    keep(property.member), keep(property.signature), Self.propertyCallback, 0))
        }
        for signal in interface.signals {
            entries.append(menud_vtable_signal(keep(signal.member), keep(signal.signature), 0))
        }
        entries.append(menud_vtable_end())
        table.initialize(from: entries, count: count)
    }

    deinit {
        table.deallocate()
        for s in strings { free(s) }
    }

    private func keep(_ s: String) -> UnsafePointer<CChar> {
        let copy = strdup(s)!
        strings.append(copy)
        return UnsafePointer(copy)
    }

    private static let methodCallback: sd_bus_message_handler_t = { message, userdata, _ in
        guard let message, let userdata else { return 0 }
        let published = Unmanaged<PublishedInterface>.fromOpaque(userdata).takeUnretainedValue()
        return published.call(BusMessage(retaining: message))
    }

    private static let propertyCallback: sd_bus_property_get_t = {
        _, _, _, property, reply, userdata, error in
        guard let property, let reply, let userdata else { return -EINVAL }
        let published = Unmanaged<PublishedInterface>.fromOpaque(userdata).takeUnretainedValue()
        guard let getter = published.properties[String(cString: property)] else { return -ENOENT }
        do throws(BusError) {
            try BusMessage(retaining: reply).append(getter.get())
            return 1
        } catch {
            return error.code
        }
    }

    private func call(_ message: BusMessage) -> Int32 {
        guard let connection, let member = message.member, let method = methods[member] else { return 0 }
        let call = BusCall(message: message, connection: connection)
        do throws(BusReplyError) {
            try method.handler(call)
        } catch {
            call.fail(error)
        }
        return 1
    }
}
