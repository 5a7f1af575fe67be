import Foundation
import TestSupport

/// The pixels of a screenshot in binary PPM (`P6`, 8 bits a channel), which grim
/// writes with `-t ppm`: enough to tell whether a bar drew text in a given colour,
/// without an image library.
struct ScreenFrame: Equatable {
    let width: Int
    let height: Int
    private let pixels: [UInt8]

    init(ppm data: Data) throws {
        let bytes = [UInt8](data)
        // The header: "P6", width, height, maximum, each after whitespace, then one
        // whitespace byte before the pixels.
        var fields: [String] = []
        var index = 0
        while fields.count < 4 && index < bytes.count {
            while index < bytes.count && bytes[index] <= 32 { index += 1 }
            let start = index
            while index < bytes.count && bytes[index] > 32 { index += 1 }
            fields.append(String(decoding: bytes[start..<index], as: UTF8.self))
        }
        index += 1
        guard fields.count == 4, fields[0] == "P6", let width = Int(fields[1]), let height = Int(fields[2]),
            fields[3] == "255", bytes.count - index == width * height * 3
        else { throw TimedOut(description: "not an 8-bit P6 image: \(fields)") }
        self.width = width
        self.height = height
        pixels = Array(bytes[index...])
    }

    /// Whether the top `rows` rows hold text in each colour of `shown` and in none of
    /// `hidden`.
    func shows(_ shown: [(UInt8, UInt8, UInt8)], not hidden: [(UInt8, UInt8, UInt8)] = [], rows: Int) -> Bool
    {
        shown.allSatisfy { count($0, rows: rows) > 0 } && hidden.allSatisfy { count($0, rows: rows) == 0 }
    }

    /// How many pixels in the top `rows` rows are within `tolerance` of `color` on
    /// every channel: text antialiased against the background keeps some pixels of its
    /// own colour.
    func count(_ color: (UInt8, UInt8, UInt8), tolerance: Int = 24, rows: Int) -> Int {
        var count = 0
        for offset in stride(from: 0, to: min(rows, height) * width * 3, by: 3)
        where abs(Int(pixels[offset]) - Int(color.0)) <= tolerance
            && abs(Int(pixels[offset + 1]) - Int(color.1)) <= tolerance
            && abs(Int(pixels[offset + 2]) - Int(color.2)) <= tolerance
        {
            count += 1
        }
        return count
    }

    /// The bytes of the pixels in columns `minX...maxX` of rows `minY...maxY`, clipped
    /// to the frame, row by row: to tell whether a part of the screen changed.
    func pixels(minX: Int, minY: Int, maxX: Int, maxY: Int) -> ArraySlice<UInt8> {
        let left = max(minX, 0)
        let right = min(maxX, width - 1)
        guard left <= right else { return [] }
        var out: ArraySlice<UInt8> = []
        for y in max(minY, 0)...max(min(maxY, height - 1), 0) {
            out += pixels[((y * width + left) * 3)..<((y * width + right + 1) * 3)]
        }
        return out
    }

    /// The pixel at (x, y).
    func pixel(at x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
        let offset = (y * width + x) * 3
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2])
    }

    func isColor(at x: Int, _ y: Int, _ color: (UInt8, UInt8, UInt8), tolerance: Int) -> Bool {
        let p = pixel(at: x, y)
        return abs(Int(p.0) - Int(color.0)) <= tolerance && abs(Int(p.1) - Int(color.1)) <= tolerance
            && abs(Int(p.2) - Int(color.2)) <= tolerance
    }

    func differs(at x: Int, _ y: Int, from other: ScreenFrame, tolerance: Int) -> Bool {
        !isColor(at: x, y, other.pixel(at: x, y), tolerance: tolerance)
    }

    /// The pixel's brightness, 0 to 255.
    func luminance(at x: Int, _ y: Int) -> Int {
        let p = pixel(at: x, y)
        return (299 * Int(p.0) + 587 * Int(p.1) + 114 * Int(p.2)) / 1000
    }
}
