import CGtk
import MenuClient
import MenuSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The popup's look: the GTK theme's (dark or light), with a few rules of its own for
/// the classes docs/integrations.md lists (row, group, expanded, focused, stale,
/// key, mark, value), then the user's `$XDG_CONFIG_HOME/menud/popup.css` when there
/// is one, which overrides both.
enum PopupStyle {
    static let builtIn = """
        #menud-popup .row { padding: 3px 8px 3px 0; }
        #menud-popup .stale { opacity: 0.6; }
        #menud-popup .mark, #menud-popup .value { opacity: 0.8; }
        """

    static func userFile() -> String? {
        if let config = getenv("XDG_CONFIG_HOME").map({ String(cString: $0) }), !config.isEmpty {
            return config + "/menud/popup.css"
        }
        guard let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty else { return nil }
        return home + "/.config/menud/popup.css"
    }

    static func load() {
        guard let screen = gdk_screen_get_default() else { return }
        add(screen, priority: UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION)) { provider in
            gtk_css_provider_load_from_data(provider, builtIn, -1, nil)
        }
        guard let file = userFile(), access(file, R_OK) == 0 else { return }
        add(screen, priority: UInt32(GTK_STYLE_PROVIDER_PRIORITY_USER)) { provider in
            var error: UnsafeMutablePointer<GError>?
            if gtk_css_provider_load_from_path(provider, file, &error) == 0 {
                let message = error.map { String(cString: $0.pointee.message) } ?? "unreadable"
                WriteAll.errorLine("menud-popup: \(file): \(message); its rules are not used")
                g_clear_error(&error)
            }
        }
    }

    private static func add(
        _ screen: OpaquePointer, priority: UInt32, _ fill: (UnsafeMutablePointer<GtkCssProvider>?) -> Void
    ) {
        let provider = gtk_css_provider_new()
        fill(provider)
        gtk_style_context_add_provider_for_screen(screen, OpaquePointer(provider), priority)
        g_object_unref(provider)
    }
}
