import CGtk

/// Swift closures as GTK signal handlers. A closure is boxed and passed as the
/// handler's data, and the box is released when GTK drops the handler (the widget
/// destroyed, or the handler disconnected). There is one function per C signature
/// the popup connects to, since a handler's arguments are its signal's.
enum GSignal {
    private final class Box<F> {
        let call: F
        init(_ call: F) { self.call = call }
    }

    private static let release: GClosureNotify = { data, _ in
        guard let data else { return }
        Unmanaged<AnyObject>.fromOpaque(data).release()
    }

    private static func connect<F>(
        _ instance: UnsafeMutableRawPointer?, _ signal: String, _ trampoline: GCallback, _ call: F
    ) {
        let data = Unmanaged.passRetained(Box(call) as AnyObject).toOpaque()
        _ = menud_popup_connect(instance, signal, trampoline, data, release)
    }

    /// `void handler(GObject *instance, gpointer data)`: clicked, value-changed,
    /// activate, destroy, realize, map.
    static func plain(_ instance: UnsafeMutableRawPointer?, _ signal: String, _ call: @escaping () -> Void) {
        let trampoline: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
            Unmanaged<Box<() -> Void>>.fromOpaque(data!).takeUnretainedValue().call()
        }
        connect(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), call)
    }

    /// `void handler(GObject *instance, gpointer argument, gpointer data)`: a list
    /// box's row-activated, with the row.
    static func withArgument(
        _ instance: UnsafeMutableRawPointer?, _ signal: String,
        _ call: @escaping (UnsafeMutableRawPointer?) -> Void
    ) {
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, argument, data in
            Unmanaged<Box<(UnsafeMutableRawPointer?) -> Void>>.fromOpaque(data!).takeUnretainedValue()
                .call(argument)
        }
        connect(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), call)
    }

    /// `gboolean handler(GtkWidget *widget, GdkEvent *event, gpointer data)`: the
    /// key, button, scroll and focus events; true stops the event there.
    static func event(
        _ instance: UnsafeMutableRawPointer?, _ signal: String,
        _ call: @escaping (UnsafeMutableRawPointer?) -> Bool
    ) {
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> gboolean = { _, event, data in
            Unmanaged<Box<(UnsafeMutableRawPointer?) -> Bool>>.fromOpaque(data!).takeUnretainedValue()
                .call(event) ? 1 : 0
        }
        connect(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), call)
    }

    /// `gboolean handler(GtkSwitch *switch, gboolean state, gpointer data)`: a
    /// switch's state-set; true keeps the state as it is until it is set.
    static func stateSet(
        _ instance: UnsafeMutableRawPointer?, _ call: @escaping (Bool) -> Bool
    ) {
        let trampoline: @convention(c) (gpointer?, gboolean, gpointer?) -> gboolean = { _, state, data in
            Unmanaged<Box<(Bool) -> Bool>>.fromOpaque(data!).takeUnretainedValue().call(state != 0) ? 1 : 0
        }
        connect(instance, "state-set", unsafeBitCast(trampoline, to: GCallback.self), call)
    }
}
