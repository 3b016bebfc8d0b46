@testable import BLETransport
import Testing

@Suite("A bounded table keeps the newest keys and counts those it forgot")
struct BoundedTableTests {
    @Test("admitting a key past the capacity forgets the oldest, and counts it")
    func forgetsTheOldest() {
        var table = BoundedTable<String, Int>(capacity: 2)
        table.set("a", 1)
        table.set("b", 2)
        table.set("a", 10)
        #expect(table.forgotten == 0 && table["a"] == 10)
        table.set("c", 3)
        #expect(table["a"] == nil && table["b"] == 2 && table["c"] == 3)
        #expect(table.forgotten == 1)
    }

    @Test("a change to a key already held keeps its place in the order; a new key starts from the initial value")
    func updateInPlace() {
        var table = BoundedTable<String, [Int]>(capacity: 2)
        table.update("a", initial: []) { $0.append(1) }
        table.update("b", initial: []) { $0.append(2) }
        table.update("a", initial: []) { $0.append(3) }
        table.update("c", initial: [9]) { $0.append(4) }
        #expect(table["a"] == nil && table["b"] == [2] && table["c"] == [9, 4])
    }
}
