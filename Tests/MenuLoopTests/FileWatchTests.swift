import MenuLoop
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite(.ownThread) struct FileWatchTests {
    private func write(_ text: String, to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = text.utf8CString.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
    }

    /// What the config watch relies on: a file created in the watched directory, and
    /// then one renamed over it (an editor's save), are both seen by name.
    @Test func seesAFileCreatedAndOneRenamedOverIt() throws {
        var created: FileWatch.Event?
        var replaced: FileWatch.Event?
        try withTemporaryDirectory { directory in
            try runLoop { loop in
                let watch = try FileWatch(loop: loop, path: directory)
                watch.onError = { Issue.record("watch failed: \($0)") }
                watch.onEvent = { event in
                    guard event.name == "menu.yaml" else { return }
                    if created == nil {
                        created = event
                        // The next turn, after this burst of events.
                        let save = LoopTimer(loop: loop)
                        save.onFire = {
                            save.close()
                            write("b", to: "\(directory)/menu.yaml.tmp")
                            rename("\(directory)/menu.yaml.tmp", "\(directory)/menu.yaml")
                        }
                        save.start(after: .zero)
                    } else if replaced == nil, event.renamed {
                        replaced = event
                        watch.close()
                    }
                }
                write("a", to: "\(directory)/menu.yaml")
            }
        }
        #expect(created?.name == "menu.yaml")
        #expect(replaced == FileWatch.Event(name: "menu.yaml", renamed: true, changed: false))
    }
}
