/// The first old state of every node an operation or batch touched. From it the
/// model computes what changed, and undoes everything when a batch fails, so a batch
/// applies all or nothing.
struct Journal {
    private(set) var oldExpanded: [Int: Bool] = [:]
    private(set) var oldValues: [Int: Value?] = [:]

    mutating func noteExpansion(_ i: Int, was old: Bool) {
        if oldExpanded[i] == nil { oldExpanded[i] = old }
    }

    mutating func noteValue(_ i: Int, was old: Value?) {
        if oldValues[i] == nil { oldValues[i] = .some(old) }
    }
}
