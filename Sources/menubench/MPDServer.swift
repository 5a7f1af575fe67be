import Foundation

/// The socket section's own mpd (Debian `mpd`): a generated minimal config in a
/// directory of its own, with a null audio output, a Unix socket, empty music and
/// playlist directories and no zeroconf, run in the foreground and removed when it
/// stops. No state file, so nothing of a desktop's own mpd is read or written.
struct MPDServer {
    let directory: String
    let pid: pid_t
    var socket: String { "\(directory)/socket" }

    /// Starts mpd in `directory`, which it creates; nil if mpd is not installed or
    /// the directory cannot be made.
    static func start(in directory: String) -> MPDServer? {
        let files = FileManager.default
        do {
            for sub in ["music", "playlists"] {
                try files.createDirectory(
                    atPath: "\(directory)/\(sub)", withIntermediateDirectories: true)
            }
            try Data(config(directory).utf8).write(to: URL(fileURLWithPath: "\(directory)/mpd.conf"))
        } catch {
            return nil
        }
        guard let pid = ChildProcess.start(["mpd", "--no-daemon", "\(directory)/mpd.conf"]) else {
            try? files.removeItem(atPath: directory)
            return nil
        }
        return MPDServer(directory: directory, pid: pid)
    }

    func stop() {
        ChildProcess.stop(pid)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// mpd allows 100 clients by default; the thousand-connection load needs more.
    private static func config(_ dir: String) -> String {
        """
        music_directory "\(dir)/music"
        playlist_directory "\(dir)/playlists"
        db_file "\(dir)/database"
        bind_to_address "\(dir)/socket"
        zeroconf_enabled "no"
        auto_update "no"
        max_connections "2000"
        audio_output {
            type "null"
            name "null"
            mixer_type "none"
        }

        """
    }
}
