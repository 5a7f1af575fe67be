import ArgumentParser
import MenuClient
import MenuSystem

#if canImport(Glibc)
    import Glibc
#endif

@main
enum Main {
    static func main() {
        let arguments = hoistingGlobalOptions(Array(CommandLine.arguments.dropFirst()))
        do {
            var command = try MenuCtl.parseAsRoot(arguments)
            try command.run()
        } catch let failure as ClientFailure {
            printError("menuctl: \(failure.message)")
            exit(failure.status)
        } catch {
            // Help, --version and completion scripts arrive as "errors" too, some from
            // parsing and some (`menuctl help`) from running; they exit 0.
            if MenuCtl.exitCode(for: error) == .success {
                // Help is text only; the shell's completion calls pass the line typed.
                if !arguments.contains("---completion"),
                    let style = arguments.first(where: { $0 == "--json" || $0 == "--raw" })
                {
                    printError("menuctl: \(style) has no meaning for help: it is text")
                    exit(ExitStatus.usage)
                }
                print(MenuCtl.fullMessage(for: error))
                exit(ExitStatus.ok)
            }
            printError(MenuCtl.fullMessage(for: error))
            exit(ExitStatus.usage)
        }
    }
}

/// The root reads ``GlobalOptions`` (so `menuctl --help` lists them) wherever they
/// are written, except past the name of a command that takes its words as they are:
/// `rofi`, whose selection may look like an option. There ArgumentParser stops, so the
/// global options written right after the command's name (`menuctl rofi --socket P`,
/// as they worked before the root had them) are moved in front of it.
func hoistingGlobalOptions(_ arguments: [String]) -> [String] {
    guard let command = arguments.first, !command.hasPrefix("-") else { return arguments }
    var global: [String] = []
    var rest = arguments.dropFirst()
    while let first = rest.first {
        if first == "--json" || first == "--raw" || first.hasPrefix("--socket=") {
            global.append(first)
            rest = rest.dropFirst()
        } else if first == "--socket", rest.count >= 2 {
            global += rest.prefix(2)
            rest = rest.dropFirst(2)
        } else {
            break
        }
    }
    return global + [command] + rest
}

/// A line on standard error.
func printError(_ message: String) { WriteAll.errorLine(message) }
