#if canImport(Glibc)
    import Glibc
#endif

/// What tells one version of a file from another without reading it: the inode, the
/// size and time of its last write, and who may read it. An event on the file that
/// leaves these as they were (`touch -r` of itself, a second event of one save) is no new
/// config; a `chmod` may be one that makes it unreadable, which must be said.
struct FileSignature: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int
    var mode: UInt32
    var owner: UInt32
    var group: UInt32

    /// The signature of the file at `path` (the file a symbolic link points to); nil
    /// when there is none.
    static func of(_ path: String) -> FileSignature? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileSignature(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modifiedSeconds: info.st_mtim.tv_sec, modifiedNanoseconds: info.st_mtim.tv_nsec,
            mode: UInt32(info.st_mode), owner: info.st_uid, group: info.st_gid)
    }
}
