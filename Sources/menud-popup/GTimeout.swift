import CGtk

/// A closure run once by GLib's loop after a delay. The popup arms one only while it
/// waits for something (a pointer grab, a slow reply), so that an open and idle
/// popup has no timer at all.
enum GTimeout {
    private final class Box {
        let call: () -> Void
        init(_ call: @escaping () -> Void) { self.call = call }
    }

    /// Runs `call` once, `milliseconds` from now.
    static func once(after milliseconds: UInt32, _ call: @escaping () -> Void) {
        let box = Unmanaged.passRetained(Box(call)).toOpaque()
        g_timeout_add_full(
            G_PRIORITY_DEFAULT, milliseconds,
            { data in
                Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue().call()
                return 0
            }, box, { data in Unmanaged<Box>.fromOpaque(data!).release() })
    }
}
