import NIOCore

/// Turns a ``Response`` into protocol bytes. Kept apart from command dispatch so that
/// no handler ever writes raw bytes and every reply ends in exactly one terminator.
struct ResponseEncoder: MessageToByteEncoder {
    typealias OutboundIn = Response

    func encode(data: Response, out: inout ByteBuffer) throws {
        for line in data.lines {
            out.writeString(line)
            out.writeInteger(UInt8(ascii: "\n"))
        }
        switch data.terminator {
        case .ok: out.writeString("OK\n")
        case .greeting(let text): out.writeString("OK \(text)\n")
        case .error(let error):
            out.writeString(error.line)
            out.writeInteger(UInt8(ascii: "\n"))
        }
    }
}
