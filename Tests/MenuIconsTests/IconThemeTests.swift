import Foundation
import MenuIcons
import TestSupport
import Testing

/// The Icon Theme Specification's lookup, on themes a test lays out: the size that
/// matches before the nearest, a theme's parents before hicolor, hicolor before the
/// base directories, every base directory for one theme, and names that are paths.
@Suite struct IconThemeTests {
    /// A fixture: `user` (the user's own theme folder) and `share` (a system data
    /// folder), each an `icons` base directory, and `pixmaps`.
    final class Themes {
        let directory: TempDirectory
        init() throws { directory = try TempDirectory() }
        var user: String { directory.file("home/.icons") }
        var share: String { directory.file("share/icons") }
        var pixmaps: String { directory.file("pixmaps") }
        var bases: [String] { [user, share, pixmaps] }

        func write(_ text: String, to path: String) throws {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }

        /// A theme's `index.theme` in `base`.
        func theme(_ name: String, in base: String, inherits: String? = nil, _ directories: [String: String])
            throws
        {
            var text =
                "[Icon Theme]\nName=\(name)\nDirectories=\(directories.keys.sorted().joined(separator: ","))\n"
            if let inherits { text += "Inherits=\(inherits)\n" }
            for (directory, keys) in directories.sorted(by: { $0.key < $1.key }) {
                text += "\n[\(directory)]\n\(keys)\n"
            }
            try write(text, to: "\(base)/\(name)/index.theme")
        }

        /// An icon file, whose contents name it.
        @discardableResult
        func icon(_ relative: String, in base: String) throws -> String {
            let path = "\(base)/\(relative)"
            try write(relative, to: path)
            return path
        }
    }

    static let updateCache = "/usr/bin/gtk-update-icon-cache"
    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    @Test func anExactSizeBeforeTheNearestAndInTheThemesOrder() throws {
        let t = try Themes()
        try t.theme(
            "Mine", in: t.share,
            [
                "16x16/apps": "Size=16\nType=Fixed",
                "22x22/apps": "Size=22\nType=Fixed",
                "48x48/apps": "Size=48\nType=Fixed",
            ])
        try t.icon("Mine/22x22/apps/term.png", in: t.share)
        let exact = try t.icon("Mine/16x16/apps/term.png", in: t.share)
        try t.icon("Mine/48x48/apps/big.png", in: t.share)
        let near = try t.icon("Mine/22x22/apps/big.png", in: t.share)
        let theme = IconTheme(name: "Mine", size: 16, baseDirectories: t.bases)
        #expect(theme.file(for: "term") == exact)
        // 22 is 6 from 16, 48 is 32: the nearest size.
        #expect(theme.file(for: "big") == near)
        #expect(
            IconTheme(name: "Mine", size: 48, baseDirectories: t.bases).file(for: "big")?.hasSuffix(
                "48x48/apps/big.png") == true)
        #expect(theme.file(for: "missing") == nil)
    }

    @Test func scalableAndThresholdDirectoriesServeTheirRanges() throws {
        let t = try Themes()
        try t.theme(
            "Mine", in: t.share,
            [
                "32x32/apps": "Size=32\nType=Fixed",
                "scalable/apps": "Size=16\nType=Scalable\nMinSize=8\nMaxSize=512",
                "24x24/status": "Size=24\nThreshold=4",
            ])
        try t.icon("Mine/32x32/apps/logo.png", in: t.share)
        let svg = try t.icon("Mine/scalable/apps/logo.svg", in: t.share)
        let status = try t.icon("Mine/24x24/status/net.png", in: t.share)
        // 100 is no fixed size here, and within the scalable directory's range.
        #expect(IconTheme(name: "Mine", size: 100, baseDirectories: t.bases).file(for: "logo") == svg)
        // The fixed directory comes first in the theme's list and matches 32.
        #expect(
            IconTheme(name: "Mine", size: 32, baseDirectories: t.bases).file(for: "logo")?.hasSuffix(".png")
                == true)
        // 20 to 28 is the threshold directory's; 16 is only near it.
        #expect(IconTheme(name: "Mine", size: 20, baseDirectories: t.bases).file(for: "net") == status)
        #expect(IconTheme(name: "Mine", size: 16, baseDirectories: t.bases).file(for: "net") == status)
    }

    @Test func pngBeforeSvgBeforeXpmInOneDirectory() throws {
        let t = try Themes()
        try t.theme("Mine", in: t.share, ["16x16/apps": "Size=16\nType=Fixed"])
        try t.icon("Mine/16x16/apps/a.xpm", in: t.share)
        try t.icon("Mine/16x16/apps/a.svg", in: t.share)
        let png = try t.icon("Mine/16x16/apps/a.png", in: t.share)
        let svg = try t.icon("Mine/16x16/apps/b.svg", in: t.share)
        try t.icon("Mine/16x16/apps/b.xpm", in: t.share)
        let theme = IconTheme(name: "Mine", baseDirectories: t.bases)
        #expect(theme.file(for: "a") == png)
        #expect(theme.file(for: "b") == svg)
    }

    @Test func parentsInOrderThenHicolorThenTheBaseDirectories() throws {
        let t = try Themes()
        try t.theme("Child", in: t.share, inherits: "Left,Right", ["16x16/apps": "Size=16\nType=Fixed"])
        try t.theme("Left", in: t.share, inherits: "Deep", ["16x16/apps": "Size=16\nType=Fixed"])
        try t.theme("Deep", in: t.share, ["16x16/apps": "Size=16\nType=Fixed"])
        try t.theme("Right", in: t.share, ["16x16/apps": "Size=16\nType=Fixed"])
        try t.theme("hicolor", in: t.share, ["16x16/apps": "Size=16\nType=Fixed"])
        let own = try t.icon("Child/16x16/apps/one.png", in: t.share)
        try t.icon("Right/16x16/apps/one.png", in: t.share)
        // Depth first: Left's parent Deep comes before Right.
        let deep = try t.icon("Deep/16x16/apps/two.png", in: t.share)
        try t.icon("Right/16x16/apps/two.png", in: t.share)
        let right = try t.icon("Right/16x16/apps/three.png", in: t.share)
        let hicolor = try t.icon("hicolor/16x16/apps/four.png", in: t.share)
        let pixmap = try t.icon("five.xpm", in: t.pixmaps)
        let theme = IconTheme(name: "Child", baseDirectories: t.bases)
        #expect(theme.file(for: "one") == own)
        #expect(theme.file(for: "two") == deep)
        #expect(theme.file(for: "three") == right)
        #expect(theme.file(for: "four") == hicolor)
        #expect(theme.file(for: "five") == pixmap)
        // A theme found nowhere still falls back to hicolor.
        #expect(IconTheme(name: "Nowhere", baseDirectories: t.bases).file(for: "four") == hicolor)
    }

    @Test func aThemeSpreadOverBaseDirectoriesTheUsersFirst() throws {
        let t = try Themes()
        try t.theme("Mine", in: t.share, ["16x16/apps": "Size=16\nType=Fixed"])
        // The user's folder has no index.theme of its own: the share's describes it.
        let users = try t.icon("Mine/16x16/apps/a.png", in: t.user)
        try t.icon("Mine/16x16/apps/a.png", in: t.share)
        let shared = try t.icon("Mine/16x16/apps/b.png", in: t.share)
        let theme = IconTheme(name: "Mine", baseDirectories: t.bases)
        #expect(theme.file(for: "a") == users)
        #expect(theme.file(for: "b") == shared)
    }

    @Test func aLoopOfParentsEnds() throws {
        let t = try Themes()
        try t.theme("A", in: t.share, inherits: "B", ["16x16/apps": "Size=16\nType=Fixed"])
        try t.theme("B", in: t.share, inherits: "A", ["16x16/apps": "Size=16\nType=Fixed"])
        let b = try t.icon("B/16x16/apps/x.png", in: t.share)
        let theme = IconTheme(name: "A", baseDirectories: t.bases)
        #expect(theme.file(for: "x") == b)
        #expect(theme.file(for: "y") == nil)
    }

    @Test func aScaledDirectoryServesItsScaleOnly() throws {
        let t = try Themes()
        try t.theme(
            "Mine", in: t.share,
            ["16x16@2/apps": "Size=16\nScale=2\nType=Fixed", "32x32/apps": "Size=32\nType=Fixed"])
        let double = try t.icon("Mine/16x16@2/apps/a.png", in: t.share)
        let single = try t.icon("Mine/32x32/apps/a.png", in: t.share)
        #expect(
            IconTheme(name: "Mine", size: 16, scale: 2, baseDirectories: t.bases).file(for: "a") == double)
        #expect(IconTheme(name: "Mine", size: 32, baseDirectories: t.bases).file(for: "a") == single)
    }

    @Test func namesThatArePathsOrCarryAnExtension() throws {
        let t = try Themes()
        try t.theme("Mine", in: t.share, ["16x16/apps": "Size=16\nType=Fixed"])
        let png = try t.icon("Mine/16x16/apps/app.png", in: t.share)
        let outside = try t.icon("elsewhere/logo.png", in: t.directory.path)
        let theme = IconTheme(name: "Mine", baseDirectories: t.bases)
        #expect(theme.file(for: "app.png") == png)
        #expect(theme.file(for: outside) == outside)
        #expect(theme.file(for: t.directory.file("nothing.png")) == nil)
        // A name with a slash is no icon name: it cannot reach outside the themes.
        #expect(theme.file(for: "../elsewhere/logo") == nil)
        #expect(theme.file(for: "") == nil)
    }

    @Test func eachDirectoryIsListedOnce() throws {
        let t = try Themes()
        try t.theme(
            "Mine", in: t.share, ["16x16/apps": "Size=16\nType=Fixed", "22x22/apps": "Size=22\nType=Fixed"])
        try t.icon("Mine/22x22/apps/a.png", in: t.share)
        let theme = IconTheme(name: "Mine", baseDirectories: t.bases)
        _ = theme.file(for: "a")
        let listed = theme.directoriesListed
        // b looks in the folders a did, then for hicolor's (none here) in the three
        // base directories, which were listed already.
        _ = theme.file(for: "b")
        #expect(theme.directoriesListed == listed + 3)
        for name in ["c", "a", "d", "b"] { _ = theme.file(for: name) }
        #expect(theme.directoriesListed == listed + 3)
    }

    /// A theme folder's `icon-theme.cache`, as the real `gtk-update-icon-cache`
    /// writes it, stands for listing its directories, and gives the same files; a
    /// cache older than its folder is not used, as GTK does not use it.
    @Test(
        .ownThread,
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/gtk-update-icon-cache")))
    func gtksIconCacheStandsForTheListings() throws {
        // On CI (.ci/run installs it) a missing tool fails the test rather than skip it.
        try #require(FileManager.default.isExecutableFile(atPath: Self.updateCache), "see .ci/run")
        let t = try Themes()
        try t.theme(
            "Mine", in: t.share,
            [
                "16x16/apps": "Size=16\nType=Fixed", "32x32/apps": "Size=32\nType=Fixed",
                "scalable/apps": "Size=16\nType=Scalable\nMinSize=8\nMaxSize=512",
            ])
        var expected: [String: String] = [:]
        expected["a"] = try t.icon("Mine/16x16/apps/a.png", in: t.share)
        try t.icon("Mine/16x16/apps/a.svg", in: t.share)
        expected["b"] = try t.icon("Mine/32x32/apps/b.png", in: t.share)
        expected["c"] = try t.icon("Mine/scalable/apps/c.svg", in: t.share)
        try t.icon("Mine/32x32/apps/c.png", in: t.share)
        // Names that share a hash bucket are told apart by name.
        for k in 0..<200 { try t.icon("Mine/32x32/apps/n\(k).xpm", in: t.share) }
        expected["n7"] = t.share + "/Mine/32x32/apps/n7.xpm"
        let update = try run(
            Self.updateCache,
            ["--force", "--ignore-theme-index", "--quiet", t.share + "/Mine"])
        try #require(update.status == 0, "\(update)")
        #expect(FileManager.default.fileExists(atPath: t.share + "/Mine/icon-theme.cache"))

        let cached = IconTheme(name: "Mine", baseDirectories: t.bases)
        for (name, file) in expected { #expect(cached.file(for: name) == file, "\(name)") }
        // The three base directories, and the theme's folder in two of them (the
        // user's, which it lacks, and the share's): none of its directories.
        #expect(cached.directoriesListed == 5)
        #expect(cached.file(for: "missing") == nil)
        #expect(cached.file(for: "n") == nil)

        // An icon added after the cache was written makes the folder newer: the
        // cache is then not used, and the folders are listed.
        var later = timespec(tv_sec: time(nil) + 5, tv_nsec: 0)
        try t.icon("Mine/16x16/apps/new.png", in: t.share)
        _ = withUnsafePointer(to: &later) { pointer in
            pointer.withMemoryRebound(to: timespec.self, capacity: 1) { one in
                let times = [one.pointee, one.pointee]
                return utimensat(AT_FDCWD, t.share + "/Mine", times, 0)
            }
        }
        let stale = IconTheme(name: "Mine", baseDirectories: t.bases)
        #expect(stale.file(for: "new") == t.share + "/Mine/16x16/apps/new.png")
        #expect(stale.file(for: "a") == expected["a"])
        // The same five, and the directory the two icons are in.
        #expect(stale.directoriesListed == 6)
    }

    @Test func theThemeNameComesFromGTKsSettings() throws {
        let t = try Themes()
        let config = t.directory.file("config")
        let environment = { (name: String) -> String? in
            [
                "XDG_CONFIG_HOME": config, "XDG_CONFIG_DIRS": t.directory.file("etc-xdg"),
                "HOME": t.directory.file("home"),
            ][name]
        }
        try t.write(
            "[Settings]\ngtk-theme-name=Adwaita\n", to: t.directory.file("etc-xdg/gtk-3.0/settings.ini"))
        try t.write(
            "[Settings]\n# a comment\ngtk-icon-theme-name = Papirus-Dark\n",
            to: config + "/gtk-3.0/settings.ini")
        #expect(IconThemeSetting.themeName(environment) == "Papirus-Dark")
        try t.write("[Settings]\ngtk-icon-theme-name=\"Quoted\"\n", to: config + "/gtk-3.0/settings.ini")
        #expect(IconThemeSetting.themeName(environment) == "Quoted")
        #expect(
            IconThemeSetting.baseDirectories(environment) == [
                t.directory.file("home/.icons"), t.directory.file("home/.local/share/icons"),
                "/usr/local/share/icons", "/usr/share/icons", "/usr/share/pixmaps",
            ])
    }
}
