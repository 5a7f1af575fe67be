#if canImport(Glibc)
    import Glibc
#endif

/// A theme folder's `icon-theme.cache`, the index `gtk-update-icon-cache` writes and
/// GTK reads (the format of GTK's `gtkiconcache.c`, version 1.0, big-endian): for
/// each icon name, the theme directories that hold it and with which extensions.
/// One read of it stands for listing every directory of the theme, which for
/// Adwaita and hicolor is hundreds of folders. Like GTK, a cache older than its
/// folder is not used (an icon added since would be missed), nor one that does
/// not parse; the folder is then listed.
struct IconCache {
    /// Extension flags of an image, as the cache stores them.
    static let xpm: UInt16 = 1
    static let svg: UInt16 = 2
    static let png: UInt16 = 4

    private let bytes: [UInt8]
    private let directories: [String]
    private let hashOffset: Int
    private let buckets: Int

    /// The cache of the theme folder `folder`, or nil when it has none that GTK would use.
    init?(folder: String) {
        var folderInfo = stat()
        var cacheInfo = stat()
        let path = folder + "/icon-theme.cache"
        guard stat(folder, &folderInfo) == 0, stat(path, &cacheInfo) == 0,
            cacheInfo.st_mtim.tv_sec >= folderInfo.st_mtim.tv_sec,
            let bytes = IconFiles.bytes(at: path, limit: 64 << 20)
        else { return nil }
        self.bytes = bytes
        guard let major = Self.u16(bytes, 0), let minor = Self.u16(bytes, 2), major == 1, minor == 0,
            let hash = Self.u32(bytes, 4), let list = Self.u32(bytes, 8), let count = Self.u32(bytes, list),
            let buckets = Self.u32(bytes, hash), count < 1 << 16
        else { return nil }
        var names: [String] = []
        for k in 0..<count {
            guard let offset = Self.u32(bytes, list + 4 + 4 * k), let name = Self.string(bytes, offset) else {
                return nil
            }
            names.append(name)
        }
        directories = names
        hashOffset = hash
        self.buckets = buckets
        guard buckets > 0 else { return nil }
    }

    /// The directories (relative to the theme's folder) that hold `icon`, with the
    /// extension flags of its files there.
    func images(of icon: String) -> [(directory: String, flags: UInt16)] {
        let key = Array(icon.utf8)
        guard !key.isEmpty else { return [] }
        guard var chain = Self.u32(bytes, hashOffset + 4 + 4 * (Int(Self.hash(key) % UInt32(buckets))))
        else { return [] }
        // A chain that loops in a damaged file ends once it has been longer than
        // the file could hold.
        var steps = 0
        while chain != 0xFFFF_FFFF, steps < bytes.count / 12 {
            steps += 1
            guard let next = Self.u32(bytes, chain), let nameOffset = Self.u32(bytes, chain + 4),
                let listOffset = Self.u32(bytes, chain + 8)
            else { return [] }
            if Self.equals(bytes, nameOffset, key) {
                guard let count = Self.u32(bytes, listOffset) else { return [] }
                var out: [(String, UInt16)] = []
                for k in 0..<count {
                    let image = listOffset + 4 + 8 * k
                    guard let index = Self.u16(bytes, image), let flags = Self.u16(bytes, image + 2),
                        Int(index) < directories.count
                    else { return out }
                    out.append((directories[Int(index)], flags))
                }
                return out
            }
            chain = next
        }
        return []
    }

    /// GTK's `icon_name_hash`: over the name's bytes as signed chars.
    static func hash(_ key: [UInt8]) -> UInt32 {
        var h = UInt32(bitPattern: Int32(Int8(bitPattern: key[0])))
        for byte in key.dropFirst() {
            h = (h << 5) &- h &+ UInt32(bitPattern: Int32(Int8(bitPattern: byte)))
        }
        return h
    }

    private static func u16(_ b: [UInt8], _ at: Int) -> UInt16? {
        guard at >= 0, at + 2 <= b.count else { return nil }
        return UInt16(b[at]) << 8 | UInt16(b[at + 1])
    }

    private static func u32(_ b: [UInt8], _ at: Int) -> Int? {
        guard at >= 0, at + 4 <= b.count else { return nil }
        return Int(b[at]) << 24 | Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3])
    }

    private static func string(_ b: [UInt8], _ at: Int) -> String? {
        guard at >= 0, at < b.count, let end = b[at...].firstIndex(of: 0) else { return nil }
        return String(decoding: b[at..<end], as: UTF8.self)
    }

    private static func equals(_ b: [UInt8], _ at: Int, _ key: [UInt8]) -> Bool {
        guard at >= 0, at + key.count < b.count else { return false }
        for (k, byte) in key.enumerated() where b[at + k] != byte { return false }
        return b[at + key.count] == 0
    }
}
