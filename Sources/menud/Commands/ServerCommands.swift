import MenuCore
import MenuProtocol

/// The commands about the connection and the protocol itself, which work whatever
/// menu is loaded.
enum ServerCommands {
    static let daemonVersion = MenudRelease.version

    static let ping: Command.Action = .run { _, _, _ in }

    static let version: Command.Action = .run { _, _, out in
        out.reply.record(["protocol", Greeting.protocolVersion])
        out.reply.record(["menud", daemonVersion])
    }

    /// From the catalog itself, which the table enforces: help cannot disagree.
    static let help: Command.Action = .run { invocation, _, out throws(ProtocolError) in
        var specs = CommandCatalog.all
        if let name = invocation.arguments.first {
            guard let command = CommandName(rawValue: name) else {
                throw ProtocolError(.unknownCommand, "unknown command '\(name)'")
            }
            specs = [CommandCatalog.spec(command)]
        }
        for c in specs {
            let flags = c.flags.isEmpty ? "" : " [\(c.flags.joined(separator: "|"))]"
            out.reply.record(["help", c.name, c.usageLine + flags, c.summary])
        }
    }

    static let commands: Command.Action = .run { _, _, out in
        for c in CommandCatalog.all { out.reply.record(["command", c.name]) }
    }

    static let close: Command.Action = .run { _, _, out in out.closeConnection = true }

    static let subscribe: Command.Action = .run { invocation, _, out throws(ProtocolError) in
        out.subscribe = try EventTopics.parse(Array(invocation.arguments))
    }

    static func save(_ persistence: Persistence) -> Completion<CommandOutput> {
        persistence.saveNow(always: true).map { CommandOutput(listening: false) }
    }

    /// `refreshing` is the service's step that runs a group's command again.
    static func refresh(
        _ invocation: Invocation, _ menu: ServedMenu, _ refreshing: (Int) -> Completion<CommandOutput>
    ) -> Completion<CommandOutput> {
        do throws(ProtocolError) {
            return refreshing(try ModelCommands.node(invocation, in: menu.model))
        } catch {
            return .failed(error)
        }
    }

    /// `reloading` is the service's step that reloads the config.
    static func reload(_ reloading: (String) -> Completion<ReloadReply>) -> Completion<CommandOutput> {
        reloading("reload command").map { reply in
            var output = CommandOutput(listening: false)
            output.reply = reply.records
            if let events = reply.events { output.carry(events) }
            return output
        }
    }
}
