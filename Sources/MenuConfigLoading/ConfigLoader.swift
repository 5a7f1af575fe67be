import MenuCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Loads a menu config from YAML. Every problem found is reported with its place in
/// the file (see docs/config.md for the format, the limits and the list of errors);
/// a config with any error yields no menus at all, so the daemon never serves half
/// a menu.
public enum ConfigLoader {
    /// Reads and loads a file, streaming it to the parser. An unreadable file gives
    /// one error at 1:1.
    public static func load(path: String) -> Result<MenuConfig, ConfigErrors> {
        switch YAMLInput.opening(path: path) {
        case .success(let input):
            return decode(input, file: path, nodesOnly: false).map {
                MenuConfig(tree: $0.tree, tray: $0.tray)
            }
        case .failure(let failure):
            let reason = failure.reason
            return .failure(
                ConfigErrors([
                    ConfigError(
                        file: path, mark: SourceMark(line: 1, column: 1),
                        message: "cannot read config: \(reason)")
                ]))
        }
    }

    public static func load(text: String, file: String) -> Result<MenuConfig, ConfigErrors> {
        load(bytes: Array(text.utf8), file: file)
    }

    public static func load(bytes: [UInt8], file: String) -> Result<MenuConfig, ConfigErrors> {
        bytes.withUnsafeBufferPointer { input in
            decode(YAMLInput(bytes: input), file: file, nodesOnly: false).map {
                MenuConfig(tree: $0.tree, tray: $0.tray)
            }
        }
    }

    /// Loads a bare YAML list of nodes, as a group's `children-cmd` prints them, with
    /// the same checks and `FILE:LINE:COL` errors as a config; `file` names the source
    /// in those errors.
    public static func loadNodes(bytes: [UInt8], file: String) -> Result<[NodeSpec], ConfigErrors> {
        bytes.withUnsafeBufferPointer { input in
            decode(YAMLInput(bytes: input), file: file, nodesOnly: true).map(\.tree.specs)
        }
    }

    private static func decode(_ input: YAMLInput, file: String, nodesOnly: Bool) -> Result<
        (tree: MenuTree, tray: Bool), ConfigErrors
    > {
        let reader = YAMLEventReader(input: input, file: file)
        var decoder = ConfigDecoder(reader: reader, nodesOnly: nodesOnly)
        var errors: [ConfigError]
        do throws(LoadStop) {
            try decoder.decode()
            errors = decoder.errors + reader.problems
        } catch {
            errors = error.isSyntax ? [error.error] : decoder.errors + reader.problems + [error.error]
        }
        guard errors.isEmpty else { return .failure(ConfigErrors(inFileOrder(errors))) }
        return .success((decoder.tree, decoder.tray))
    }

    /// Some checks run when a node ends, after its children were checked; sorting
    /// puts every message back where it is in the file. Ties keep the order found.
    private static func inFileOrder(_ errors: [ConfigError]) -> [ConfigError] {
        errors.enumerated().sorted { a, b in
            (a.element.mark.line, a.element.mark.column, a.offset)
                < (b.element.mark.line, b.element.mark.column, b.offset)
        }.map(\.element)
    }
}
