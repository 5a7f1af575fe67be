import MenuCore
import Testing

@Test func calendarDateRejectsFebruary30() {
    #expect(CalendarDate("2024-02-29") != nil)
    #expect(CalendarDate("2023-02-29") == nil)
}
