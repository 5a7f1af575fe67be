#if canImport(Glibc)
    import Glibc
#endif

/// A libsystemd call that failed: which one, and the negative errno it returned.
public struct BusError: Error, Sendable, Equatable, CustomStringConvertible {
    public var operation: String
    /// As sd-bus returns it: `-ENOENT` and the like.
    public var code: Int32

    public init(_ operation: String, _ code: Int32) {
        self.operation = operation
        self.code = code
    }

    public var description: String { "\(operation): \(String(cString: strerror(-code)))" }
}

/// Throws a ``BusError`` for a negative return code, and passes the others on.
@discardableResult
func check(_ operation: @autoclosure () -> String, _ rc: Int32) throws(BusError) -> Int32 {
    if rc < 0 { throw BusError(operation(), rc) }
    return rc
}
