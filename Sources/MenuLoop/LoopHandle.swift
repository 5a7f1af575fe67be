import CUV

/// What every type here does with its libuv handle. The handle's memory is allocated
/// by its owner and freed in the close callback, the only moment libuv no longer
/// uses it. Until then the handle's `data` holds a strong reference to the owner, so
/// an open handle keeps its owner alive whether or not anybody else holds it, and
/// the owner's closures may refer to it: they are dropped when the handle closes.
protocol LoopHandle: AnyObject {
    /// Called once, from the close callback, before the handle's memory is freed.
    func handleClosed()
}

extension LoopHandle {
    /// Allocates a handle for this owner; `initialize` is the handle's `uv_*_init`.
    /// When `initialize` fails the memory is freed again and the error thrown.
    func allocateHandle<Handle>(
        _ type: Handle.Type, _ initialize: (UnsafeMutablePointer<Handle>) -> Int32
    ) throws(UVError) -> UnsafeMutablePointer<Handle> {
        let handle = UnsafeMutablePointer<Handle>.allocate(capacity: 1)
        let rc = initialize(handle)
        guard rc == 0 else {
            handle.deallocate()
            throw UVError(rc)
        }
        asHandle(handle).pointee.data = Unmanaged.passRetained(self as AnyObject).toOpaque()
        return handle
    }
}

/// The owner a handle's `data` points to, without taking a reference.
func owner<Owner: AnyObject, Handle>(of handle: UnsafeMutablePointer<Handle>?, as type: Owner.Type) -> Owner {
    Unmanaged<Owner>.fromOpaque(asHandle(handle!).pointee.data).takeUnretainedValue()
}

/// Any handle as the `uv_handle_t` it starts with.
func asHandle<Handle>(_ handle: UnsafeMutablePointer<Handle>) -> UnsafeMutablePointer<uv_handle_t> {
    UnsafeMutablePointer<uv_handle_t>(OpaquePointer(handle))
}

/// Any stream handle as the `uv_stream_t` it starts with.
func asStream<Handle>(_ handle: UnsafeMutablePointer<Handle>) -> UnsafeMutablePointer<uv_stream_t> {
    UnsafeMutablePointer<uv_stream_t>(OpaquePointer(handle))
}

/// Closes a handle made by ``LoopHandle/allocateHandle(_:_:)`` unless it is closing
/// already; its owner hears of it and its memory is freed in the close callback.
func closeHandle<Handle>(_ handle: UnsafeMutablePointer<Handle>) {
    closeHandle(asHandle(handle))
}

func closeHandle(_ handle: UnsafeMutablePointer<uv_handle_t>) {
    guard uv_is_closing(handle) == 0 else { return }
    uv_close(handle) { handle in
        guard let handle else { return }
        let owner = Unmanaged<AnyObject>.fromOpaque(handle.pointee.data).takeRetainedValue()
        (owner as! any LoopHandle).handleClosed()
        UnsafeMutableRawPointer(handle).deallocate()
    }
}
