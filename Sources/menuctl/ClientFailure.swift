/// A failure after the command line was understood, with the exit status it maps to.
struct ClientFailure: Error {
    var status: Int32
    var message: String

    static func unreachable(_ path: String, _ reason: String) -> ClientFailure {
        ClientFailure(status: ExitStatus.unreachable, message: "cannot reach menud at \(path): \(reason)")
    }
}
