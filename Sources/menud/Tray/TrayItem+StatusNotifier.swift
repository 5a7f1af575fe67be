import MenuBus
import MenuCore
import MenuProtocol

/// `org.kde.StatusNotifierItem` on the item's `/StatusNotifierItem`: what the bar
/// shows (id, title, icon, tooltip), that the item is a menu and where the menu is,
/// and the icon's own clicks and scrolls, which act on the menu's focus or open the
/// popup.
extension TrayItem {
    static let statusNotifierInterfaceName = "org.kde.StatusNotifierItem"

    func statusNotifierInterface() -> BusInterface {
        let noPixmaps = BusValue.array(element: "(iiay)", [])
        return BusInterface(
            name: Self.statusNotifierInterfaceName,
            methods: [
                // The menu opens on its own (ItemIsMenu); a click on the icon that is
                // not the menu's activates the focused row, as Enter does.
                .init("Activate", "ii", "") { [unowned self] call throws(BusReplyError) in
                    self.focusMove(.activate, call)
                },
                // The middle click opens menud-popup on this daemon, and the next one
                // closes it. A popup is a process: a host's flood of clicks is refused
                // past its budget, as the menu's clicks are.
                .init("SecondaryActivate", "ii", "") { [unowned self] call throws(BusReplyError) in
                    guard self.events.admit() else { throw Self.tooManyEvents }
                    do throws(ProtocolError) {
                        try self.tray.startPopup()
                    } catch {
                        throw Self.busError(error)
                    }
                    call.reply()
                },
                .init("ContextMenu", "ii", "") { call throws(BusReplyError) in call.reply() },
                // The wheel moves the focus, as Down and Up do; a horizontal wheel (or
                // a touchpad's sideways swipe) steps a focused range, as a slider
                // takes it, and does nothing elsewhere. The specification spells the
                // orientation "horizontal"; hosts differ in its case, so it is compared
                // without.
                .init("Scroll", "is", "") { [unowned self] call throws(BusReplyError) in
                    let (delta, orientation) = try Self.arguments(call) { () throws(BusError) in
                        (try call.arguments.readInt32(), try call.arguments.readString())
                    }
                    guard delta != 0 else { return call.reply() }
                    if orientation.lowercased() == "horizontal" {
                        self.focusMove(delta > 0 ? .increase : .decrease, call)
                    } else {
                        self.focusMove(delta > 0 ? .next : .prev, call)
                    }
                },
            ],
            properties: [
                .init("Category", "s") { .string("ApplicationStatus") },
                .init("Id", "s") { [unowned self] in .string(TrayLabel.plain(self.menu)) },
                .init("Title", "s") { [unowned self] in .string(TrayLabel.plain(self.title)) },
                .init("Status", "s") { .string("Active") },
                .init("WindowId", "i") { .int32(0) },
                .init("IconName", "s") { [unowned self] in .string(self.icon) },
                .init("IconThemePath", "s") { .string("") },
                .init("IconPixmap", "a(iiay)") { noPixmaps },
                .init("OverlayIconName", "s") { .string("") },
                .init("OverlayIconPixmap", "a(iiay)") { noPixmaps },
                .init("AttentionIconName", "s") { .string("") },
                .init("AttentionIconPixmap", "a(iiay)") { noPixmaps },
                .init("AttentionMovieName", "s") { .string("") },
                .init("ToolTip", "(sa(iiay)ss)") { [unowned self] in
                    .structure([
                        .string(self.icon), noPixmaps, .string(TrayLabel.tooltip(self.title)), .string(""),
                    ])
                },
                .init("ItemIsMenu", "b") { .bool(true) },
                .init("Menu", "o") { .objectPath(Self.menuPath) },
            ],
            signals: [
                .init("NewTitle", ""), .init("NewIcon", ""), .init("NewAttentionIcon", ""),
                .init("NewOverlayIcon", ""), .init("NewToolTip", ""), .init("NewStatus", "s"),
            ])
    }

    /// `nav MOVE MENU`, answered when the daemon has.
    private func focusMove(_ move: NavMove, _ call: BusCall) {
        perform(.nav(move, menu: menu)) { result in
            switch result {
            case .success: call.reply()
            case .failure(let error): call.fail(error)
            }
        }
    }
}
