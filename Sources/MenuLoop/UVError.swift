import CUV

/// A libuv error: a negative errno on Unix (`UV_EMFILE` is `-EMFILE`), as every libuv
/// call and callback reports it.
public struct UVError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The negative code libuv returned.
    public var code: Int32

    public init(_ code: Int32) { self.code = code }

    init(_ code: Int) { self.code = Int32(truncatingIfNeeded: code) }

    /// The positive `errno` value, for comparing with `EMFILE` and the like.
    public var errno: Int32 { -code }

    /// libuv's name for the error, such as `EMFILE`.
    public var name: String { String(cString: uv_err_name(code)) }

    public var description: String { "\(name): \(String(cString: uv_strerror(code)))" }
}
