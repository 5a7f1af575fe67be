import CSystemd
import MenuLoop

#if canImport(Glibc)
    import Glibc
#endif

/// A connection to the user's session bus, driven by the daemon's loop: the loop
/// watches the descriptor for what sd-bus asks (`sd_bus_get_events`) and a timer for
/// its next deadline (`sd_bus_get_timeout`), and sd-bus does its work in
/// `sd_bus_process` when either fires. No thread of its own, and no call here blocks:
/// requests of the bus (names, matches, calls) are all the asynchronous kind.
///
/// Every slot sd-bus keeps for a callback (a published object, a match, a call
/// waiting for its reply) is floating, owned by the bus, and releases what its
/// callback reached when sd-bus frees it.
public final class BusConnection {
    private var bus: OpaquePointer?
    private let watch: DescriptorWatch
    private let timer: LoopTimer
    private var processing = false
    /// The most messages handled in one turn of the loop.
    static let messagesPerTurn = 64
    /// The connection failed (the bus went away) or was closed; it does nothing more.
    public private(set) var isClosed = false
    /// Told once, when the bus ends the connection or an error stops it.
    public var onDisconnect: ((BusError) -> Void)?
    /// Told of failures that lose one message but not the connection.
    public var onError: ((BusError) -> Void)?

    /// Connects to the session bus (`$DBUS_SESSION_BUS_ADDRESS`, else
    /// `$XDG_RUNTIME_DIR/bus`); fails when there is none.
    public convenience init(sessionBusOn loop: EventLoop) throws(BusError) {
        try self.init(loop: loop, opening: "sd_bus_open_user", sd_bus_open_user)
    }

    /// Connects to the system bus (`$DBUS_SYSTEM_BUS_ADDRESS`, else the system's
    /// socket), where the system services are; fails when there is none.
    public convenience init(systemBusOn loop: EventLoop) throws(BusError) {
        try self.init(loop: loop, opening: "sd_bus_open_system", sd_bus_open_system)
    }

    /// Connects to the bus at `address` (`unix:path=…`), as a client of it.
    public convenience init(address: String, on loop: EventLoop) throws(BusError) {
        try self.init(loop: loop, opening: "sd_bus_start \(address)") { out in
            var bus: OpaquePointer?
            var rc = sd_bus_new(&bus)
            guard rc >= 0, let bus else { return rc < 0 ? rc : -ENOMEM }
            rc = sd_bus_set_address(bus, address)
            if rc >= 0 { rc = sd_bus_set_bus_client(bus, 1) }
            if rc >= 0 { rc = sd_bus_start(bus) }
            guard rc >= 0 else {
                sd_bus_unref(bus)
                return rc
            }
            out?.pointee = bus
            return rc
        }
    }

    private init(
        loop: EventLoop, opening name: String, _ open: (UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    ) throws(BusError) {
        var bus: OpaquePointer?
        try check(name, open(&bus))
        guard let bus else { throw BusError(name, -ENOMEM) }
        let fd = sd_bus_get_fd(bus)
        do {
            try check("sd_bus_get_fd", fd)
            watch = try DescriptorWatch(loop: loop, descriptor: fd)
        } catch let error as BusError {
            sd_bus_close_unref(bus)
            throw error
        } catch {
            sd_bus_close_unref(bus)
            throw BusError("uv_poll_init", (error as? UVError)?.code ?? -EIO)
        }
        self.bus = bus
        timer = LoopTimer(loop: loop)
        watch.onReady = { [unowned self] _ in self.process() }
        timer.onFire = { [unowned self] in self.process() }
        rearm()
    }

    /// Publishes `interface` on the object at `path`, until the connection closes.
    public func publish(_ interface: BusInterface, at path: String) throws(BusError) {
        guard let bus else { throw BusError("sd_bus_add_object_vtable", -ENOTCONN) }
        let published = PublishedInterface(interface, connection: self)
        let userdata = Unmanaged.passRetained(published).toOpaque()
        var slot: OpaquePointer?
        let rc = sd_bus_add_object_vtable(bus, &slot, path, interface.name, published.table, userdata)
        guard rc >= 0, let slot else {
            Unmanaged<PublishedInterface>.fromOpaque(userdata).release()
            throw BusError("sd_bus_add_object_vtable \(path) \(interface.name)", rc)
        }
        float(slot)
    }

    /// Asks for a well-known name; `done` hears whether the bus gave it.
    public func requestName(_ name: String, done: @escaping (Result<Void, BusReplyError>) -> Void) {
        guard let bus else { return done(.failure(.failed("not connected"))) }
        let box = Callback { message in done(Self.outcome(message).map { _ in }) }
        let userdata = Unmanaged.passRetained(box).toOpaque()
        var slot: OpaquePointer?
        let rc = sd_bus_request_name_async(bus, &slot, name, 0, Callback.invoke, userdata)
        adopt(slot, rc: rc, userdata: userdata, operation: "sd_bus_request_name_async \(name)")
        rearm()
    }

    /// Calls a method; `reply` hears its answer, or its error.
    public func call(
        destination: String, path: String, interface: String, member: String, arguments: [BusValue],
        reply: @escaping (Result<BusMessage, BusReplyError>) -> Void
    ) {
        guard let bus else { return reply(.failure(.failed("not connected"))) }
        var raw: OpaquePointer?
        let made = sd_bus_message_new_method_call(bus, &raw, destination, path, interface, member)
        guard made >= 0, let raw else {
            return reply(.failure(.failed(BusError("sd_bus_message_new_method_call", made).description)))
        }
        let message = BusMessage(adopting: raw)
        do throws(BusError) {
            for argument in arguments { try message.append(argument) }
        } catch {
            return reply(.failure(.failed(error.description)))
        }
        let box = Callback { answer in reply(Self.outcome(answer)) }
        let userdata = Unmanaged.passRetained(box).toOpaque()
        var slot: OpaquePointer?
        let rc = sd_bus_call_async(bus, &slot, message.raw, Callback.invoke, userdata, 0)
        adopt(slot, rc: rc, userdata: userdata, operation: "sd_bus_call_async \(member)")
        rearm()
    }

    /// Hears every signal that matches, until the connection closes; nil fields
    /// match anything.
    public func onSignal(
        sender: String?, path: String?, interface: String?, member: String?,
        _ handler: @escaping (BusMessage) -> Void
    ) {
        guard let bus else { return }
        let box = Callback { handler($0) }
        let userdata = Unmanaged.passRetained(box).toOpaque()
        var slot: OpaquePointer?
        let rc = sd_bus_match_signal_async(
            bus, &slot, sender, path, interface, member, Callback.invoke, nil, userdata)
        adopt(slot, rc: rc, userdata: userdata, operation: "sd_bus_match_signal_async \(member ?? "*")")
        rearm()
    }

    /// Sends a signal from the object at `path`.
    public func emit(path: String, interface: String, member: String, _ arguments: [BusValue]) {
        guard let bus else { return }
        var raw: OpaquePointer?
        let rc = sd_bus_message_new_signal(bus, &raw, path, interface, member)
        guard rc >= 0, let raw else { return report(BusError("sd_bus_message_new_signal \(member)", rc)) }
        let message = BusMessage(adopting: raw)
        do throws(BusError) {
            for argument in arguments { try message.append(argument) }
            try send(message)
        } catch {
            report(error)
        }
    }

    func send(_ message: BusMessage) throws(BusError) {
        guard let bus else { throw BusError("sd_bus_send", -ENOTCONN) }
        try check("sd_bus_send", sd_bus_send(bus, message.raw, nil))
        rearm()
    }

    func report(_ error: BusError) {
        onError?(error)
    }

    /// Closes the connection; what is still queued is dropped.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        timer.close()
        watch.close()
        if let bus {
            self.bus = nil
            // Frees the floating slots, and with them what their callbacks held.
            sd_bus_close_unref(bus)
        }
        onDisconnect = nil
        onError = nil
    }

    // MARK: the loop

    /// Lets sd-bus do all it can now, then waits again for what it asks.
    private func process() {
        guard let bus, !processing else { return }
        processing = true
        defer { processing = false }
        // A bounded number of messages a turn: a peer flooding the connection must
        // not keep the loop from its sockets and signals. sd-bus's timeout is zero
        // while messages wait in its queue, so the rest come on the next turn.
        var budget = Self.messagesPerTurn
        while !isClosed, budget > 0 {
            let rc = sd_bus_process(bus, nil)
            if rc < 0 { return disconnect(BusError("sd_bus_process", rc)) }
            if rc == 0 { break }
            budget -= 1
        }
        rearm()
    }

    /// Watches for what sd-bus waits for now: after processing and after anything
    /// was queued to send.
    func rearm() {
        guard let bus, !isClosed else { return }
        let events = sd_bus_get_events(bus)
        guard events >= 0 else { return disconnect(BusError("sd_bus_get_events", events)) }
        var wanted: DescriptorWatch.Events = []
        if Int16(events) & Int16(POLLIN) != 0 { wanted.insert(.readable) }
        if Int16(events) & Int16(POLLOUT) != 0 { wanted.insert(.writable) }
        do throws(UVError) {
            try watch.watch(wanted)
        } catch {
            return disconnect(BusError("uv_poll_start", error.code))
        }
        var deadline: UInt64 = 0
        guard sd_bus_get_timeout(bus, &deadline) >= 0, deadline != UInt64.max else {
            timer.stop()
            return
        }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        let delay = deadline > nowMicroseconds ? deadline - nowMicroseconds : 0
        timer.start(after: .microseconds(Int64(clamping: delay)))
    }

    private func disconnect(_ error: BusError) {
        let told = onDisconnect
        close()
        told?(error)
    }

    /// Hands `slot` to the bus, which frees it (and releases `userdata`) when it is
    /// done with it; releases `userdata` at once when there is no slot.
    private func adopt(
        _ slot: OpaquePointer?, rc: Int32, userdata: UnsafeMutableRawPointer, operation: String
    ) {
        guard rc >= 0, let slot else {
            Unmanaged<Callback>.fromOpaque(userdata).release()
            return report(BusError(operation, rc < 0 ? rc : -ENOMEM))
        }
        float(slot)
    }

    private func float(_ slot: OpaquePointer) {
        sd_bus_slot_set_destroy_callback(slot) { userdata in
            if let userdata { Unmanaged<AnyObject>.fromOpaque(userdata).release() }
        }
        sd_bus_slot_set_floating(slot, 1)
        sd_bus_slot_unref(slot)
    }

    private static func outcome(_ message: BusMessage) -> Result<BusMessage, BusReplyError> {
        guard let error = sd_bus_message_get_error(message.raw), sd_bus_error_is_set(error) != 0 else {
            return .success(message)
        }
        return .failure(
            BusReplyError(
                name: error.pointee.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed",
                message: error.pointee.message.map { String(cString: $0) } ?? ""))
    }
}

/// A callback sd-bus calls with a message: a reply, a signal, a name's answer.
private final class Callback {
    let handler: (BusMessage) -> Void

    init(_ handler: @escaping (BusMessage) -> Void) { self.handler = handler }

    static let invoke: sd_bus_message_handler_t = { message, userdata, _ in
        guard let message, let userdata else { return 0 }
        Unmanaged<Callback>.fromOpaque(userdata).takeUnretainedValue().handler(BusMessage(retaining: message))
        return 0
    }
}
