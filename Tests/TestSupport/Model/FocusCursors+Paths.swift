import MenuCore

/// The cursors' operations by path, for tests that name nodes as a request does:
/// each looks the path up once, as the daemon does where a request arrives.
extension FocusCursors {
    public mutating func focus(on path: String, model: MenuModel) throws(MenuError) -> Outcome {
        try focus(on: model.node(path), model: model)
    }

    public mutating func open(_ path: String, model: MenuModel) throws(MenuError) -> Outcome {
        try open(model.node(path), model: model)
    }
}
