import MenuConfigLoading
import MenuCore

@testable import menud

/// A menu with one node of each kind a tray shows differently.
enum TrayFixture {
    static let yaml = """
        menu:
          - id: main
            title: Main
            children:
              - {id: wifi, title: Wi-Fi, type: toggle, key: w}
              - id: mode
                title: Mode
                options: [eco, fast]
                value: fast
              - {id: vol, title: Volume, type: range, min: 0, max: 10, step: 5, value: 5}
              - {id: big, title: Big, type: range, min: 0, max: 1000, step: 1, value: 0}
              - {id: name, title: Name, type: text, value: box}
              - {id: off, title: Power off, exec: poweroff, confirm: Really?}
              - id: sub
                title: Sub
                children:
                  - id: deep
                    title: Deep
                    children:
                      - {id: deeper, title: Deeper, exec: "true"}
              - {id: nets, title: Networks, children-cmd: "true"}
        """

    static func model() throws -> MenuModel {
        MenuModel(config: try ConfigLoader.load(text: yaml, file: "tray.yaml").get())
    }
}

extension MenuModel {
    func entry(_ path: String, depth: Int32 = -1) throws -> TrayEntry {
        TrayMenu.entry(of: try node(path), in: self, depth: depth)
    }
}

extension TrayEntry {
    /// The labels of its entries, in order.
    var labels: [String] { children.map(\.label) }

    /// Its entry labelled `label`, at any depth.
    func find(_ label: String) -> TrayEntry? {
        if self.label == label { return self }
        for child in children { if let found = child.find(label) { return found } }
        return nil
    }
}
