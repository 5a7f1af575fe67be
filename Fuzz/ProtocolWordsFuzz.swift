// libFuzzer target: any bytes as a request line. Splitting must never crash, and
// whatever it splits must survive quoting and splitting again unchanged.

import MenuProtocol

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProtocolWords(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let line = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let words = try? ProtocolWords.split(line) else { return 0 }
    let again = words.map { ProtocolWords.quote($0.text) }.joined(separator: " ")
    let back = try? ProtocolWords.split(again)
    precondition(
        back?.map(\.text) == words.map(\.text), "quote/split round trip failed for \(line.debugDescription)")
    return 0
}
