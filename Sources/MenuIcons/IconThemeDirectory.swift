/// One directory of an icon theme as its `index.theme` describes it: the size of
/// its icons, and which sizes it serves (the Icon Theme Specification's `Size`,
/// `Scale`, `Type`, `MinSize`, `MaxSize` and `Threshold`, with its defaults).
struct IconThemeDirectory: Equatable {
    enum Kind: Equatable {
        case fixed
        case scalable(min: Int, max: Int)
        case threshold(Int)
    }

    /// Relative to the theme's folder: `16x16/apps`.
    var name: String
    var size: Int
    var scale: Int
    var kind: Kind

    /// The directory `name` as the theme's key file has it; nil without a valid `Size`,
    /// which the specification requires.
    init?(name: String, in file: KeyFile) {
        guard let size = file[name, "Size"].flatMap({ Int($0) }), size > 0 else { return nil }
        self.name = name
        self.size = size
        scale = file[name, "Scale"].flatMap { Int($0) }.map { max($0, 1) } ?? 1
        switch file[name, "Type"] {
        case "Fixed":
            kind = .fixed
        case "Scalable":
            let minSize = file[name, "MinSize"].flatMap { Int($0) } ?? size
            let maxSize = file[name, "MaxSize"].flatMap { Int($0) } ?? size
            kind = .scalable(min: minSize, max: maxSize)
        default:
            kind = .threshold(file[name, "Threshold"].flatMap { Int($0) } ?? 2)
        }
    }

    /// The specification's `DirectoryMatchesSize`.
    func matches(size wanted: Int, scale wantedScale: Int) -> Bool {
        guard scale == wantedScale else { return false }
        switch kind {
        case .fixed: return size == wanted
        case .scalable(let low, let high): return low <= wanted && wanted <= high
        case .threshold(let t): return size - t <= wanted && wanted <= size + t
        }
    }

    /// The specification's `DirectorySizeDistance`, in device pixels; with its two
    /// slips mended (the threshold case compares `MinSize`/`MaxSize`, which a
    /// threshold directory does not have, and squares the size): the distance to the
    /// nearest size it serves.
    func distance(size wanted: Int, scale wantedScale: Int) -> Int {
        let want = wanted * wantedScale
        let (low, high): (Int, Int)
        switch kind {
        case .fixed: (low, high) = (size, size)
        case .scalable(let l, let h): (low, high) = (l, h)
        case .threshold(let t): (low, high) = (size - t, size + t)
        }
        if want < low * scale { return low * scale - want }
        if want > high * scale { return want - high * scale }
        return 0
    }
}
