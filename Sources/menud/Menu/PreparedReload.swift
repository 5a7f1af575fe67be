import MenuCore

/// A new model ready to be swapped in, with what the swap changes.
///
/// Unchecked: the model is made on a pool thread and handed to the loop whole; the
/// pool thread keeps no reference to it.
final class PreparedReload: @unchecked Sendable {
    let target: ConfigLocation
    let config: MenuConfig
    let signature: FileSignature?
    /// The loaded children the new model was filled with, by their groups' paths:
    /// the config's specs name groups so.
    let loadedChildren: [String: LoadedChildren]
    let next: MenuModel
    /// The `config reloaded` record and the change's, for the reply and the subscribers;
    /// taken once (``takeOutput()``).
    private var output: CommandOutput?
    let dropped: [DroppedState]
    /// The old model's revision the change was computed from.
    let revision: Int

    init(
        target: ConfigLocation, config: MenuConfig, signature: FileSignature?,
        loadedChildren: [String: LoadedChildren], next: MenuModel,
        output: CommandOutput, dropped: [DroppedState], revision: Int
    ) {
        self.target = target
        self.config = config
        self.signature = signature
        self.loadedChildren = loadedChildren
        self.next = next
        self.output = output
        self.dropped = dropped
        self.revision = revision
    }

    /// The output, which the caller then holds the only reference to.
    func takeOutput() -> CommandOutput {
        defer { output = nil }
        return output ?? CommandOutput(listening: false)
    }
}
