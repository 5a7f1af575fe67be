/// Which of the accordion's rows the popup makes widgets for. A list of up to
/// `capacity` rows is made whole; a longer one (a group of 10,000 children) only
/// in a window of `capacity` rows around what is on screen, with the rest stood in
/// for by space of their estimated height, so that opening it costs the widgets of
/// a few hundred rows and not of all of them (a GTK list box grows with the square
/// of its rows).
public struct RowWindow: Equatable, Sendable {
    /// The most rows made at once.
    public let capacity: Int
    /// How near the window's ends the rows on screen may come before it moves: a
    /// window moved only when needed keeps the widgets of a short scroll.
    public let margin: Int
    /// The rows made, as indexes in the accordion's rows.
    public private(set) var range: Range<Int> = 0..<0

    public init(capacity: Int = 90, margin: Int = 20) {
        precondition(capacity > 2 * margin && margin >= 0, "a window must hold more than its margins")
        self.capacity = capacity
        self.margin = margin
    }

    /// Moves the window for `count` rows, of which `visible` are on screen, so that
    /// it holds them with room to scroll; `focus` is a row the window must hold
    /// whatever is on screen (one the focus just moved to, which is then scrolled
    /// to). Returns whether the window moved.
    @discardableResult
    public mutating func update(count: Int, visible: Range<Int>, focus: Int? = nil) -> Bool {
        let before = range
        if count <= capacity {
            range = 0..<count
            return range != before
        }
        let wanted: Range<Int>
        if let focus, focus >= 0, focus < count {
            wanted = focus..<(focus + 1)
        } else {
            let lower = min(max(visible.lowerBound, 0), count - 1)
            wanted = lower..<min(max(visible.upperBound, lower + 1), count)
        }
        if range.count == capacity, range.upperBound <= count, holds(wanted, count: count) { return false }
        // Centred on what must show, so that scrolling either way is made already.
        let middle = (wanted.lowerBound + wanted.upperBound) / 2
        let lower = min(max(middle - capacity / 2, 0), count - capacity)
        range = lower..<(lower + capacity)
        return range != before
    }

    /// Whether `wanted` lies inside the window, away from its ends by the margin
    /// where the window can move (an end at the first or last row cannot).
    private func holds(_ wanted: Range<Int>, count: Int) -> Bool {
        let low = range.lowerBound == 0 ? 0 : range.lowerBound + margin
        let high = range.upperBound == count ? count : range.upperBound - margin
        return wanted.lowerBound >= low && wanted.upperBound <= high
    }

    /// The row at height `y` of the whole list, when the rows before the window
    /// take `rowHeight` each and the window's rows take `windowHeight` together:
    /// exact outside the window, and in it as if its rows were of one height.
    public func row(at y: Double, count: Int, rowHeight: Double, windowHeight: Double) -> Int {
        guard count > 0, rowHeight > 0 else { return 0 }
        let top = Double(range.lowerBound) * rowHeight
        let index: Int
        if y < top {
            index = Int(y / rowHeight)
        } else if y < top + windowHeight, !range.isEmpty {
            index = range.lowerBound + Int((y - top) / (windowHeight / Double(range.count)))
        } else {
            index = range.upperBound + Int(max(y - top - windowHeight, 0) / rowHeight)
        }
        return min(max(index, 0), count - 1)
    }
}
