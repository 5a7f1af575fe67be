import CUV

#if canImport(Glibc)
    import Glibc
#endif

/// The read end of a pipe from a child (a `uv_pipe_t` on the descriptor):
/// what carries a command's captured output. It only reads, until the child's end
/// closes (``onEndOfInput``) or a read fails (``onError``); menud's clients, which
/// are written to as well, are ``SocketConnection``s.
final class PipeReader: LoopHandle {
    /// The bytes of one read. They are the loop's shared read buffer, valid only
    /// during the call: copy what must be kept.
    @exclusivity(unchecked) var onRead: ((UnsafeRawBufferPointer) -> Void)?
    /// The child's end closed: nothing more comes.
    var onEndOfInput: (() -> Void)?
    /// A read failed; the pipe is closing.
    var onError: ((UVError) -> Void)?

    @exclusivity(unchecked) private var handle: UnsafeMutablePointer<uv_pipe_t>!
    private var isClosing = false

    /// The read end `descriptor` of a pipe, which it owns and closes from now on,
    /// also when opening it fails.
    init(descriptor: Int32, on loop: UnsafeMutablePointer<uv_loop_t>) throws(UVError) {
        do throws(UVError) {
            handle = try allocateHandle(uv_pipe_t.self) { uv_pipe_init(loop, $0, 0) }
        } catch {
            Glibc.close(descriptor)
            throw error
        }
        let rc = uv_pipe_open(handle, descriptor)
        guard rc == 0 else {
            Glibc.close(descriptor)
            closeHandle(handle)
            throw UVError(rc)
        }
    }

    var stream: UnsafeMutablePointer<uv_stream_t> { asStream(handle) }

    /// Starts delivering reads to ``onRead``.
    func startReading() {
        guard !isClosing else { return }
        let rc = uv_read_start(
            stream,
            { handle, _, buffer in
                // The loop's read buffer (EventLoop.init put it in the loop's data).
                let loop = handle!.pointee.loop!
                buffer!.pointee = uv_buf_init(
                    loop.pointee.data.assumingMemoryBound(to: CChar.self), UInt32(EventLoop.readBufferSize))
            },
            { stream, count, buffer in
                owner(of: stream, as: PipeReader.self).received(count, buffer!.pointee)
            })
        if rc < 0 { fail(UVError(rc)) }
    }

    /// Stops delivering reads until ``startReading()``; what the child writes waits
    /// in the pipe, and a child that fills it waits for room.
    func stopReading() {
        guard !isClosing else { return }
        uv_read_stop(stream)
    }

    private func received(_ count: Int, _ buffer: uv_buf_t) {
        if count > 0 {
            onRead?(UnsafeRawBufferPointer(start: buffer.base, count: count))
        } else if count == Int(UV_EOF.rawValue) {
            // libuv has stopped reading.
            onEndOfInput?()
        } else if count < 0 {
            fail(UVError(count))
        }
    }

    /// Closes now; the child's later writes fail (EPIPE).
    func close() {
        guard !isClosing else { return }
        isClosing = true
        closeHandle(handle)
    }

    private func fail(_ error: UVError) {
        guard !isClosing else { return }
        onError?(error)
        close()
    }

    func handleClosed() {
        onRead = nil
        onEndOfInput = nil
        onError = nil
    }
}
