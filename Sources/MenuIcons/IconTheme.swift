/// Icon names resolved to files by the freedesktop Icon Theme Specification, for the
/// front ends that take an image file rather than a name (openbox's and labwc's
/// menus): the user's theme, then the themes it `Inherits`, then `hicolor`, then the
/// base directories themselves (`/usr/share/pixmaps`); in each theme first a
/// directory that serves the size, else the nearest size. A name that is a path is
/// taken when the file is there.
///
/// Everything read is kept: each theme's `index.theme` is read once, its
/// `icon-theme.cache` where GTK would use it (``IconCache``), each directory a
/// cache does not cover listed once (``IconFiles``), and each name resolved once, so
/// a menu of a thousand entries costs a few files read, not a thousand searches.
public final class IconTheme {
    /// The theme asked for, then its parents in the order the specification walks them.
    public let name: String
    public let size: Int
    public let scale: Int
    /// The folders themes are looked for in, most important first (``IconThemeSetting``).
    public let baseDirectories: [String]
    private let files = IconFiles()
    private var themes: [String: Theme?] = [:]
    private var resolved: [String: String?] = [:]

    private struct Theme {
        var parents: [String]
        var directories: [IconThemeDirectory]
        /// The theme's folders, one in each base directory that has one (the others
        /// hold none of its icons), each with its icon cache when GTK would use it.
        var folders: [(path: String, cache: IconCache?)]
    }

    static let extensions = ["png", "svg", "xpm"]

    public init(name: String, size: Int = 16, scale: Int = 1, baseDirectories: [String]) {
        self.name = name
        self.size = max(size, 1)
        self.scale = max(scale, 1)
        self.baseDirectories = baseDirectories
    }

    /// How many directories the lookups so far have listed.
    public var directoriesListed: Int { files.directoriesListed }

    /// The file for the icon `icon` (a name, or an absolute path), or nil when there
    /// is none.
    public func file(for icon: String) -> String? {
        guard !icon.isEmpty else { return nil }
        if let known = resolved[icon] { return known }
        let found = lookUp(icon)
        resolved[icon] = found
        return found
    }

    private func lookUp(_ icon: String) -> String? {
        if icon.hasPrefix("/") { return IconFiles.isFile(icon) ? icon : nil }
        // A name is no path: one with a `/` (or a `..`) could leave the theme.
        guard !icon.contains("/"), icon != ".", icon != ".." else { return nil }
        // Desktop entries sometimes name `foo.png`; the specification's names have no
        // extension.
        var name = icon
        for ext in Self.extensions where name.hasSuffix("." + ext) {
            name = String(name.dropLast(ext.count + 1))
        }
        var visited = Set<String>()
        if let found = findInTheme(name, self.name, visited: &visited) { return found }
        if let found = findInTheme(name, "hicolor", visited: &visited) { return found }
        for base in baseDirectories {
            for ext in Self.extensions where files.contains("\(name).\(ext)", in: base) {
                return "\(base)/\(name).\(ext)"
            }
        }
        return nil
    }

    /// The specification's `FindIconHelper`: the theme, then each parent in turn,
    /// depth first. `visited` breaks a loop of `Inherits`.
    private func findInTheme(_ icon: String, _ themeName: String, visited: inout Set<String>) -> String? {
        guard visited.insert(themeName).inserted, let theme = theme(themeName) else { return nil }
        if let found = lookUp(icon, in: themeName, theme) { return found }
        for parent in theme.parents {
            if let found = findInTheme(icon, parent, visited: &visited) { return found }
        }
        return nil
    }

    /// The specification's `LookupIcon`: a directory that serves the size, in the
    /// order the theme lists them, each in every base directory; else the file of
    /// the nearest size.
    private func lookUp(_ icon: String, in themeName: String, _ theme: Theme) -> String? {
        // Per folder with a cache: the directories that hold the icon, and as what.
        let cached: [[String: UInt16]?] = theme.folders.map { folder in
            folder.cache.map { cache in
                Dictionary(cache.images(of: icon).map { ($0.directory, $0.flags) }) { first, _ in first }
            }
        }
        // Caches that list the icon nowhere spare their folders' directories.
        guard cached.contains(where: { $0 == nil || !$0!.isEmpty }) else { return nil }
        var closest: (file: String, distance: Int)?
        for directory in theme.directories {
            let matches = directory.matches(size: size, scale: scale)
            let distance = matches ? 0 : directory.distance(size: size, scale: scale)
            if !matches, let closest, closest.distance <= distance { continue }
            for (folder, images) in zip(theme.folders, cached) {
                let ext: String?
                if let images {
                    ext = images[directory.name].flatMap(Self.fileExtension(flags:))
                } else {
                    let path = "\(folder.path)/\(directory.name)"
                    ext = Self.extensions.first { files.contains("\(icon).\($0)", in: path) }
                }
                guard let ext else { continue }
                let file = "\(folder.path)/\(directory.name)/\(icon).\(ext)"
                if matches { return file }
                if closest == nil || distance < closest!.distance { closest = (file, distance) }
            }
        }
        return closest?.file
    }

    /// The extension a cache's flags give, in the order of ``extensions``.
    private static func fileExtension(flags: UInt16) -> String? {
        if flags & IconCache.png != 0 { return "png" }
        if flags & IconCache.svg != 0 { return "svg" }
        if flags & IconCache.xpm != 0 { return "xpm" }
        return nil
    }

    private func theme(_ themeName: String) -> Theme? {
        if let known = themes[themeName] { return known }
        var theme: Theme?
        // The first `index.theme` found describes the theme; its directories are
        // looked for in every base directory.
        for base in baseDirectories where files.contains("index.theme", in: "\(base)/\(themeName)") {
            guard let text = IconFiles.text(at: "\(base)/\(themeName)/index.theme") else { continue }
            let file = KeyFile(text: text)
            let names = file.list("Icon Theme", "Directories") + file.list("Icon Theme", "ScaledDirectories")
            var seen = Set<String>()
            theme = Theme(
                parents: file.list("Icon Theme", "Inherits"),
                directories: names.filter { seen.insert($0).inserted }.compactMap {
                    IconThemeDirectory(name: $0, in: file)
                },
                folders: baseDirectories.filter { files.contains(themeName, in: $0) }.map {
                    let folder = "\($0)/\(themeName)"
                    return (folder, IconCache(folder: folder))
                })
            break
        }
        themes[themeName] = theme
        return theme
    }
}
