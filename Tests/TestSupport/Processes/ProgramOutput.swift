import Foundation

/// What a program writes on several pipes at once (its standard output and error),
/// read as it comes so that neither pipe fills and blocks the program.
struct ProgramOutput {
    private let descriptors: [Int32]
    private var bytes: [[UInt8]]
    private var ended: [Bool]

    init(descriptors: [Int32]) {
        self.descriptors = descriptors
        bytes = Array(repeating: [], count: descriptors.count)
        ended = Array(repeating: false, count: descriptors.count)
    }

    /// Every pipe has reached its end.
    var isAtEnd: Bool { !ended.contains(false) }

    /// The text read so far from the `index`th pipe.
    func text(_ index: Int) -> String { String(decoding: bytes[index], as: UTF8.self) }

    /// Reads what has arrived, waiting up to `milliseconds` for something to; returns
    /// how many pipes had something (an end counts).
    mutating func read(waitingMilliseconds milliseconds: Int32) -> Int {
        let open = descriptors.indices.filter { !ended[$0] }
        var polled = open.map { pollfd(fd: descriptors[$0], events: Int16(POLLIN), revents: 0) }
        let ready = poll(&polled, nfds_t(polled.count), milliseconds)
        guard ready > 0 else { return 0 }
        var chunk = [UInt8](repeating: 0, count: 65536)
        for (slot, index) in open.enumerated() where polled[slot].revents != 0 {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(descriptors[index], $0.baseAddress, $0.count) }
            if n > 0 {
                bytes[index] += chunk[..<n]
            } else if n == 0 || errno != EINTR {
                ended[index] = true
            }
        }
        return Int(ready)
    }
}
