import CSystemd

#if canImport(Glibc)
    import Glibc
#endif

/// A method call to one of the published objects, to be answered once, now or
/// later: a handler that must wait (for a command that loads a group's children)
/// keeps the call and answers when it can. A call dropped unanswered gets a
/// `Failed` error, so no caller waits for ever.
public final class BusCall {
    /// The call's arguments, read in order.
    public let arguments: BusMessage
    private weak var connection: BusConnection?
    public private(set) var isAnswered = false

    init(message: BusMessage, connection: BusConnection) {
        arguments = message
        self.connection = connection
    }

    deinit {
        if !isAnswered { fail(.failed("the call was dropped unanswered")) }
    }

    /// The unique name of the caller.
    public var sender: String? { arguments.sender }

    /// Answers with `values`, in order.
    public func reply(_ values: [BusValue] = []) {
        guard !isAnswered else { return }
        isAnswered = true
        guard let connection else { return }
        var raw: OpaquePointer?
        guard sd_bus_message_new_method_return(arguments.raw, &raw) >= 0, let raw else {
            connection.report(BusError("sd_bus_message_new_method_return", -ENOMEM))
            return
        }
        let reply = BusMessage(adopting: raw)
        do throws(BusError) {
            for value in values { try reply.append(value) }
            try connection.send(reply)
        } catch {
            connection.report(error)
        }
    }

    /// Answers with a D-Bus error.
    public func fail(_ error: BusReplyError) {
        guard !isAnswered else { return }
        isAnswered = true
        guard let connection else { return }
        var busError = menud_bus_error_null()
        defer { sd_bus_error_free(&busError) }
        sd_bus_error_set(&busError, error.name, error.message)
        let rc = sd_bus_reply_method_error(arguments.raw, &busError)
        if rc < 0 { connection.report(BusError("sd_bus_reply_method_error", rc)) }
        connection.rearm()
    }
}
