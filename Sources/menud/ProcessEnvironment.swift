#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's environment variables and home directory, read with libc so that
/// menud need not load Foundation, most of a start's cost, for a few lookups.
enum ProcessEnvironment {
    /// The variable's value, or nil when it is not set.
    static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Every variable, by name.
    static func all() -> [String: String] {
        var out: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let eq = text.firstIndex(of: "=") {
                out[String(text[..<eq])] = String(text[text.index(after: eq)...])
            }
            entry += 1
        }
        return out
    }

    /// `$HOME` when it is set and not empty, else the home directory in the user
    /// database (what a login shell would set), else `/`.
    static func home(environment: (String) -> String? = value) -> String {
        if let home = environment("HOME"), !home.isEmpty { return home }
        if let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir {
            let path = String(cString: directory)
            if !path.isEmpty { return path }
        }
        return "/"
    }
}
