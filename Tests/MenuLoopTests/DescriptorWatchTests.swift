import MenuLoop
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite(.ownThread) struct DescriptorWatchTests {
    /// A watch reports what it waits for and leaves the reading to the descriptor's
    /// owner: the bytes are still there to read after the report, and the descriptor
    /// stays open after the watch closes.
    @Test func reportsReadableAndLeavesTheDescriptorAlone() throws {
        try withPipe { ends in
            var reports: [DescriptorWatch.Events] = []
            var read = ""
            try runLoop { loop in
                let watch = try DescriptorWatch(loop: loop, descriptor: ends[0])
                watch.onReady = { result in
                    guard case .success(let events) = result else { return }
                    reports.append(events)
                    var buffer = [UInt8](repeating: 0, count: 16)
                    let n = Glibc.read(ends[0], &buffer, buffer.count)
                    read = String(decoding: buffer.prefix(max(n, 0)), as: UTF8.self)
                    watch.close()
                }
                try watch.watch(.readable)
                #expect(Glibc.write(ends[1], "hi", 2) == 2)
            }
            #expect(reports == [.readable])
            #expect(read == "hi")
            #expect(fcntl(ends[0], F_GETFD) >= 0)
        }
    }

    /// Watching for nothing stops the reports; watching again resumes them, for
    /// what is asked now (sd-bus asks for writable only while it has a queue).
    @Test func watchingChangesWithWhatIsAsked() throws {
        try withPipe { ends in
            var reports: [DescriptorWatch.Events] = []
            var paused = false
            var whilePaused = 0
            try runLoop { loop in
                let watch = try DescriptorWatch(loop: loop, descriptor: ends[1])
                watch.onReady = { result in
                    guard case .success(let events) = result else { return }
                    if paused {
                        whilePaused += 1
                        return
                    }
                    reports.append(events)
                    // Writable at once; the first report stops the watch for a while.
                    try? watch.watch([])
                    paused = true
                    if reports.count == 2 { return watch.close() }
                    let again = LoopTimer(loop: loop)
                    again.onFire = {
                        again.close()
                        paused = false
                        try? watch.watch([.writable])
                    }
                    again.start(after: .milliseconds(5))
                }
                try watch.watch([.writable])
            }
            #expect(reports == [.writable, .writable])
            #expect(whilePaused == 0)
        }
    }
}
