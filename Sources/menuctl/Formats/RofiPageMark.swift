#if canImport(Glibc)
    import Glibc
#endif

/// Whether the page rofi shows is a value prompt, kept between `menuctl rofi`
/// calls. rofi runs a new process for every step and rofi 1.7.3 hands no data
/// back (no `ROFI_DATA`), and with `--search` text typed at the search page (a query)
/// and at a value prompt (a value) come back alike, as a custom entry. The mark is
/// a file named after the user and the rofi's process group, in `$XDG_RUNTIME_DIR`
/// (or /tmp), there only while a value prompt shows.
///
/// Not after rofi's process id: rofi starts the script through GLib's spawn, whose
/// intermediate child exits at once, so the script's parent is init or a subreaper,
/// the same for every rofi. A rofi started by a shell, a window manager or a key
/// binder leads a process group of its own, which its scripts share.
enum RofiPageMark {
    static var asking: Bool {
        get { access(path, F_OK) == 0 }
        set {
            if newValue {
                let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
                if fd >= 0 { close(fd) }
            } else {
                unlink(path)
            }
        }
    }

    private static var path: String {
        let dir = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) } ?? "/tmp"
        return "\(dir)/menuctl-rofi-\(getuid())-\(getpgrp())"
    }
}
