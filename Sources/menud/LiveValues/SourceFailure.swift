import MenuCore

#if canImport(Glibc)
    import Glibc
#endif

/// Why a node's source gave no value: what its row says (``StaleReason``) and the
/// log, and when, by the wall clock.
struct SourceFailure: Error, Equatable {
    var message: String
    /// ISO 8601, UTC, to the second, as the protocol writes it.
    var since: String
    /// The log has said it already: a missing program, logged once by name
    /// (``MissingPrograms``) however many nodes and runs it fails.
    var logged: Bool

    init(_ message: String, logged: Bool = false) {
        self.message = message
        self.logged = logged
        since = Self.now()
    }

    var reason: StaleReason { StaleReason(message, since: since) }

    /// The wall clock's time now, as the protocol writes a time.
    static func now() -> String {
        var seconds = time(nil)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let length = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
