import Foundation

/// Where the build put the binaries and where the fixtures are. The test bundle runs
/// from the build directory (`.build/debug/menudPackageTests.xctest`), so the
/// executables, which the end-to-end tests' target depends on, are next to it.
public enum TestPaths {
    public static let buildDirectory: URL = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        for dir in [
            bundle.deletingLastPathComponent(),
            bundle.deletingLastPathComponent().deletingLastPathComponent(),
        ]
        where FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("menud").path) {
            return dir
        }
        return packageRoot.appendingPathComponent(".build/debug")
    }()

    /// The checkout this file is in: the nearest folder above it that holds
    /// Package.swift, so that moving this file within Tests changes nothing.
    public static let packageRoot: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/"
            && !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path)
        {
            directory.deleteLastPathComponent()
        }
        return directory
    }()

    public static let menud = buildDirectory.appendingPathComponent("menud").path
    public static let menuctl = buildDirectory.appendingPathComponent("menuctl").path
    public static let popup = buildDirectory.appendingPathComponent("menud-popup").path

    /// A file of Tests/EndToEndTests/Fixtures.
    public static func fixture(_ name: String) -> String {
        packageRoot.appendingPathComponent("Tests/EndToEndTests/Fixtures/\(name)").path
    }
}
