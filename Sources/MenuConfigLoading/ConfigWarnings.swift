import MenuCore

/// What `menud --check` says of a config that loads: nothing in it is wrong, but
/// something is likely not what its writer meant. A warning does not stop the
/// config from being served.
public enum ConfigWarnings {
    /// A value row that nothing reads from the system (`value-cmd`, `value-listen`)
    /// and nothing applies (`on-change`): changing it changes a number in menud and
    /// nothing on the machine. Each warning is `FILE:LINE:COL: warning: message`,
    /// at the node.
    public static func of(_ config: MenuConfig) -> [String] {
        let tree = config.nodes
        var warnings: [String] = []
        for i in 0..<tree.count where !tree.isVacant(i) && tree.kind(i).holdsValue {
            guard tree.valueSource(i) == nil, tree.onChangeCommand(i) == nil else { continue }
            let mark = tree.mark(i)
            warnings.append(
                "\(config.file):\(mark.line):\(mark.column): warning: '\(tree.path(i))' holds a value that nothing reads or applies: give it a value-cmd, a value-listen or an on-change"
            )
        }
        return warnings
    }
}
