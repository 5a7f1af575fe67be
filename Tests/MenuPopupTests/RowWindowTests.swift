import PropertyBased
import Testing

@testable import MenuPopup

/// The window of rows the popup makes: whole for a short list, and for a long one
/// always as big as it may be, inside the list, holding what must show, and moved
/// only when what shows comes near its ends.
@Suite struct RowWindowTests {
    /// `update`, callable inside an expectation.
    func moved(_ window: inout RowWindow, count: Int, visible: Range<Int>, focus: Int? = nil) -> Bool {
        window.update(count: count, visible: visible, focus: focus)
    }

    @Test func aShortListIsMadeWhole() {
        var window = RowWindow(capacity: 200, margin: 40)
        #expect(moved(&window, count: 12, visible: 0..<12))
        #expect(window.range == 0..<12)
        #expect(!moved(&window, count: 12, visible: 3..<5, focus: 11))
        #expect(moved(&window, count: 200, visible: 0..<20))
        #expect(window.range == 0..<200)
        #expect(moved(&window, count: 3, visible: 0..<20))
        #expect(window.range == 0..<3)
    }

    @Test func aLongListIsMadeAroundWhatShows() {
        var window = RowWindow(capacity: 200, margin: 40)
        window.update(count: 10_001, visible: 0..<20)
        #expect(window.range == 0..<200)
        // Scrolling within the margin keeps the window; past it, the window moves.
        #expect(!moved(&window, count: 10_001, visible: 120..<140))
        #expect(moved(&window, count: 10_001, visible: 150..<170))
        #expect(window.range == 60..<260)
        // A jump of the focus to the end moves it there, whatever showed.
        #expect(moved(&window, count: 10_001, visible: 150..<170, focus: 10_000))
        #expect(window.range == 9_801..<10_001)
        // The group closed: the list is short again.
        #expect(moved(&window, count: 2, visible: 9_990..<10_001))
        #expect(window.range == 0..<2)
    }

    @Test func theWindowHoldsWhatMustShowAndMovesOnlyWhenItMust() async {
        let input = zip(
            Gen.int(in: 0...5_000), Gen.int(in: 0...5_000), Gen.int(in: 0...30), Gen.int(in: -1...5_000))
        await propertyCheck(count: 300, input: input.array(of: 1...8)) { steps in
            var window = RowWindow(capacity: 100, margin: 20)
            for (count, top, shown, focusAt) in steps {
                let visible = top..<(top + shown)
                let focus = focusAt >= 0 ? focusAt : nil
                window.update(count: count, visible: visible, focus: focus)
                let range = window.range
                #expect(range.count == min(count, 100))
                #expect(range.lowerBound >= 0 && range.upperBound <= count)
                if let focus, focus < count {
                    #expect(range.contains(focus))
                } else if count > 0, top < count {
                    #expect(range.contains(top))
                    #expect(range.contains(min(top + max(shown, 1), count) - 1))
                }
                let same = range
                #expect(!moved(&window, count: count, visible: visible, focus: focus))
                #expect(window.range == same)
            }
        }
    }

    @Test func aHeightIsMappedToItsRow() {
        var window = RowWindow(capacity: 200, margin: 40)
        window.update(count: 10_000, visible: 5_000..<5_010)
        #expect(window.range == 4_905..<5_105)
        // Rows before the window are 30 high; the window's 200 rows take 8,000.
        #expect(window.row(at: 0, count: 10_000, rowHeight: 30, windowHeight: 8_000) == 0)
        #expect(window.row(at: 30 * 4_904 + 29, count: 10_000, rowHeight: 30, windowHeight: 8_000) == 4_904)
        #expect(window.row(at: 30 * 4_905, count: 10_000, rowHeight: 30, windowHeight: 8_000) == 4_905)
        #expect(
            window.row(at: 30 * 4_905 + 40 * 10, count: 10_000, rowHeight: 30, windowHeight: 8_000) == 4_915)
        #expect(
            window.row(at: 30 * 4_905 + 8_000, count: 10_000, rowHeight: 30, windowHeight: 8_000) == 5_105)
        #expect(window.row(at: 1e9, count: 10_000, rowHeight: 30, windowHeight: 8_000) == 9_999)
        #expect(window.row(at: -5, count: 10_000, rowHeight: 30, windowHeight: 8_000) == 0)
    }
}
