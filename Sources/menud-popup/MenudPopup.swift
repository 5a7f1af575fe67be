import ArgumentParser
import CGtk
import MenuClient
import MenuPopup
import MenuSystem

#if canImport(Glibc)
    import Glibc
#endif

/// menud-popup: the accordion as a window, one click from any bar. A client of the
/// running menud like menuctl, never a second model.
@main
struct MenudPopup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "menud-popup",
        abstract: "Show menud's menu as a popup: groups that open in place, switches, sliders.",
        discussion: """
            Running it while it is open closes it, so one bar on-click opens and closes it. Escape, an \
            item that runs and (on X11) a click outside close it too. On Wayland it is a layer-shell \
            surface; on X11 a popup at the pointer. With --resident it stays running hidden, and each \
            later run opens or closes it at once.
            """)

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The daemon's socket.",
            discussion: DefaultSocketPath.help,
            valueName: "path"))
    var socket: String?

    @Option(name: .long, help: ArgumentHelp("Show only this top-level menu.", valueName: "name"))
    var menu: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Open at PATH (a deep link: its group opens and it has the focus), or on X11 show at the point X,Y.",
            valueName: "path|x,y"))
    var at: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Wayland: the edges to anchor to, comma-separated (top, bottom, left, right); none for the middle.",
            valueName: "edges"))
    var anchor: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Wayland: the margins from the anchored edges in pixels, N or TOP,RIGHT,BOTTOM,LEFT.",
            valueName: "pixels"))
    var margin: String?

    @Option(name: .long, help: ArgumentHelp("Wayland: the output to show on.", valueName: "name"))
    var output: String?

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Start hidden and stay running when closed: each later run of menud-popup opens or closes this one at once."
        ))
    var resident = false

    func validate() throws {
        do {
            if let anchor { _ = try PopupPlacement.anchors(anchor) }
            if let margin { _ = try PopupPlacement.margins(margin) }
        } catch let invalid as PopupPlacement.Invalid {
            throw ValidationError(invalid.description)
        }
    }

    func run() throws {
        do {
            try show()
        } catch let failure as Failure {
            WriteAll.errorLine("menud-popup: \(failure.description)")
            Glibc.exit(1)
        }
    }

    private func show() throws {
        let socket =
            socket
            ?? DefaultSocketPath.resolve(
                environment: { getenv($0).map { String(cString: $0) } }, uid: getuid())
        var placement = PopupPlacement()
        if let anchor { placement.anchors = try PopupPlacement.anchors(anchor) }
        if let margin { placement.margins = try PopupPlacement.margins(margin) }
        placement.output = output
        var deepLink = at
        if let at, let point = PopupPlacement.point(at) {
            placement.point = point
            deepLink = nil
        }

        // The daemon first: without one, that is the error, display or not.
        let session: PopupSession
        do {
            session = try PopupSession(socket: socket)
        } catch {
            throw Failure(error.description)
        }
        let toggles = SingleInstance.ToggleSignal()
        switch try claim(socket) {
        case .claimed: break
        case .closedOther, .toggledResident: return
        }
        guard gtk_init_check(nil, nil) != 0 else {
            throw Failure("cannot open a display: neither WAYLAND_DISPLAY nor DISPLAY leads to one")
        }
        PopupStyle.load()
        let popup = PopupWindow(session: session, menu: menu, placement: placement, resident: resident)
        let unmanaged = Unmanaged.passRetained(popup)
        defer { unmanaged.release() }
        _ = g_unix_fd_add(
            session.descriptor, GIOCondition(G_IO_IN.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue),
            { _, _, data in
                Unmanaged<PopupWindow>.fromOpaque(data!).takeUnretainedValue().readDaemon() ? 1 : 0
            }, unmanaged.toOpaque())
        for signal in [SIGTERM, SIGINT, SIGHUP] {
            _ = g_unix_signal_add(
                signal,
                { _ in
                    gtk_main_quit()
                    return 0
                }, nil)
        }
        toggles.toggle = { popup.toggle() }
        popup.start(at: deepLink)
        gtk_main()
        if let failure = popup.failure { throw Failure(failure) }
    }

    private func claim(_ socket: String) throws -> SingleInstance.Claim {
        do {
            return try SingleInstance.claim(socket: socket, resident: resident)
        } catch let failure as SingleInstance.Failure {
            throw Failure(failure.description)
        }
    }

    /// One line on stderr and exit status 1.
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

}
