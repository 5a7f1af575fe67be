import MenuCore
import MenuLoop

/// What a reload lets go of, freed on a pool thread: the old model and config, and
/// the change's records once written. Freeing a million nodes' strings, or a hundred
/// thousand changed paths, takes long enough to stall every client.
///
/// Unchecked: the loop hands over its last references.
final class Released: @unchecked Sendable {
    private var model: MenuModel?
    private var config: MenuConfig?
    private var output: CommandOutput?

    init(model: consuming MenuModel, config: consuming MenuConfig, output: consuming CommandOutput) {
        self.model = model
        self.config = config
        self.output = output
    }

    /// Frees them here, and gives the freed memory back to the system: glibc keeps
    /// it otherwise, and a daemon that once served a huge menu would stay its size.
    func free() {
        model = nil
        config = nil
        output = nil
        MemoryRelease.trim()
    }
}
