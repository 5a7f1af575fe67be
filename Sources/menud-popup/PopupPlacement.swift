import CGtk

/// Where the popup shows. On Wayland it is a layer-shell surface (as waybar's and
/// fuzzel's are), anchored to the edges given, with keyboard focus while it is open.
/// On X11 it is a popup at the pointer, or at a given point, kept on the screen.
struct PopupPlacement {
    enum Edge: String, CaseIterable {
        case top, bottom, left, right

        var layerEdge: GtkLayerShellEdge {
            switch self {
            case .top: GTK_LAYER_SHELL_EDGE_TOP
            case .bottom: GTK_LAYER_SHELL_EDGE_BOTTOM
            case .left: GTK_LAYER_SHELL_EDGE_LEFT
            case .right: GTK_LAYER_SHELL_EDGE_RIGHT
            }
        }
    }

    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    var anchors: Set<Edge> = []
    /// Top, right, bottom, left, in pixels, as CSS orders them.
    var margins: [Int32] = [0, 0, 0, 0]
    /// The output's name (its connector, as `swaymsg -t get_outputs` shows it, or its
    /// model).
    var output: String?
    /// X11 only: the point to show at, instead of the pointer.
    var point: (x: Int32, y: Int32)?

    /// `top,right`: the edges to anchor to; empty for the output's middle.
    static func anchors(_ text: String) throws -> Set<Edge> {
        var edges: Set<Edge> = []
        for word in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let edge = Edge(rawValue: String(word)) else {
                throw Invalid(
                    description: "--anchor takes top, bottom, left and right, comma-separated; not '\(word)'")
            }
            edges.insert(edge)
        }
        return edges
    }

    /// `N` for every side, or `TOP,RIGHT,BOTTOM,LEFT`.
    static func margins(_ text: String) throws -> [Int32] {
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map {
            Int32($0)
        }
        guard numbers.allSatisfy({ $0 != nil && $0! >= 0 }), numbers.count == 1 || numbers.count == 4 else {
            throw Invalid(description: "--margin takes N, or TOP,RIGHT,BOTTOM,LEFT, in pixels; not '\(text)'")
        }
        return numbers.count == 1 ? Array(repeating: numbers[0]!, count: 4) : numbers.map { $0! }
    }

    /// `X,Y` in pixels, or nil when `text` is no such pair.
    static func point(_ text: String) -> (x: Int32, y: Int32)? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let x = Int32(parts[0]), let y = Int32(parts[1]) else { return nil }
        return (x, y)
    }

    /// Whether the popup is a layer-shell surface: on Wayland, where the compositor
    /// offers the protocol (sway, Hyprland, niri, labwc, river do).
    static var isLayerSurface: Bool { menud_popup_display_is_wayland() != 0 && gtk_layer_is_supported() != 0 }

    /// Sets up `window` before it is shown.
    func apply(to window: UnsafeMutablePointer<GtkWidget>) {
        let gtkWindow: UnsafeMutablePointer<GtkWindow>? = gtk(window)
        gtk_window_set_title(gtkWindow, "menud")
        gtk_window_set_decorated(gtkWindow, 0)
        gtk_window_set_resizable(gtkWindow, 0)
        if Self.isLayerSurface {
            gtk_layer_init_for_window(gtkWindow)
            gtk_layer_set_namespace(gtkWindow, "menud-popup")
            gtk_layer_set_layer(gtkWindow, GTK_LAYER_SHELL_LAYER_TOP)
            gtk_layer_set_keyboard_mode(gtkWindow, GTK_LAYER_SHELL_KEYBOARD_MODE_EXCLUSIVE)
            for edge in Edge.allCases {
                gtk_layer_set_anchor(gtkWindow, edge.layerEdge, anchors.contains(edge) ? 1 : 0)
            }
            let sides: [Edge] = [.top, .right, .bottom, .left]
            for (edge, margin) in zip(sides, margins) {
                gtk_layer_set_margin(gtkWindow, edge.layerEdge, margin)
            }
            if let output, let monitor = Self.monitor(named: output) {
                gtk_layer_set_monitor(gtkWindow, monitor)
            }
        } else {
            gtk_window_set_type_hint(gtkWindow, GDK_WINDOW_TYPE_HINT_POPUP_MENU)
            gtk_window_set_keep_above(gtkWindow, 1)
            gtk_window_set_skip_taskbar_hint(gtkWindow, 1)
            gtk_window_set_skip_pager_hint(gtkWindow, 1)
            place(window)
        }
    }

    /// X11: moves `window` to the pointer, or to the point given, before it shows.
    func place(_ window: UnsafeMutablePointer<GtkWidget>) {
        guard !Self.isLayerSurface else { return }
        var x: Int32 = 0
        var y: Int32 = 0
        if let point {
            (x, y) = point
        } else {
            let seat = gdk_display_get_default_seat(gdk_display_get_default())
            gdk_device_get_position(gdk_seat_get_pointer(seat), nil, &x, &y)
        }
        gtk_window_move(gtk(window), x, y)
    }

    /// X11: moves `window`, once its size is known, so that it is whole on the
    /// monitor it opened on.
    func keepOnScreen(_ window: UnsafeMutablePointer<GtkWidget>) {
        guard !Self.isLayerSurface else { return }
        let gtkWindow: UnsafeMutablePointer<GtkWindow>? = gtk(window)
        var x: Int32 = 0
        var y: Int32 = 0
        var width: Int32 = 0
        var height: Int32 = 0
        gtk_window_get_position(gtkWindow, &x, &y)
        gtk_window_get_size(gtkWindow, &width, &height)
        let display = gdk_display_get_default()
        guard let monitor = gdk_display_get_monitor_at_point(display, x, y) else { return }
        var area = GdkRectangle()
        gdk_monitor_get_workarea(monitor, &area)
        let fitX = max(area.x, min(x, area.x + area.width - width))
        let fitY = max(area.y, min(y, area.y + area.height - height))
        if fitX != x || fitY != y { gtk_window_move(gtkWindow, fitX, fitY) }
    }

    private static func monitor(named name: String) -> OpaquePointer? {
        let display = gdk_display_get_default()
        for k in 0..<gdk_display_get_n_monitors(display) {
            guard let monitor = gdk_display_get_monitor(display, k) else { continue }
            let model = gdk_monitor_get_model(monitor).map { String(cString: $0) }
            if model == name { return monitor }
        }
        return nil
    }
}
