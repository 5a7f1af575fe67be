import Foundation
import TestSupport
import Testing

/// The report of a test that walks a hostile menu: no command from the text ran. The
/// menu's text would have made its PWNED files in `directory`.
func expectNothingInjected(in directory: TempDirectory, sourceLocation: SourceLocation = #_sourceLocation)
    throws
{
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(
        !files.contains { $0.hasPrefix("PWNED") }, "commands from menu text ran: \(files.sorted())",
        sourceLocation: sourceLocation)
}

/// The hostile fixture for window managers' menus, made for `directory`: @DIR@ is the
/// directory, where a command from the text would make its file, and @LONG@ a title
/// longer than a jgmenu line may be. Beside it, the file one title tries to have
/// jgmenu include, which holds a row of its own.
func hostileMenusConfig(in directory: TempDirectory) throws -> String {
    let text = try String(contentsOfFile: TestPaths.fixture("hostile-menus.yaml"), encoding: .utf8)
        .replacing("@DIR@", with: directory.path)
        .replacing("@LONG@", with: String(repeating: "L", count: 9000))
    let path = directory.file("hostile-menus.yaml")
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    try "Included,touch \(directory.file("PWNED-jg-include"))\n".write(
        toFile: directory.file("include.csv"), atomically: true, encoding: .utf8)
    return path
}
