/// The connections being followed, found by flow key, and kept in two orders of recent
/// activity, one for open connections and one for closed connections awaiting their last
/// packets, so that the least recently active of each is found in constant time.
///
/// The orders are doubly linked lists threaded through an array by index, so that touching a
/// connection on every segment moves a few integers and no reference counts.
struct ConnectionTable {
    enum Order {
        case open
        case closed
    }

    private struct Slot {
        var connection: TrackedConnection?
        var order = Order.open
        var older: Int?
        var newer: Int?
    }

    private struct Ends {
        var oldest: Int?
        var newest: Int?
    }

    private var connectionsByKey: [FlowKey: TrackedConnection] = [:]
    private var slots: [Slot] = []
    private var freeSlots: [Int] = []
    private var openEnds = Ends()
    private var closedEnds = Ends()

    var count: Int { connectionsByKey.count }

    subscript(key: FlowKey) -> TrackedConnection? { connectionsByKey[key] }

    /// The least recently active connection in `order`.
    func oldest(_ order: Order) -> TrackedConnection? {
        self[ends: order].oldest.flatMap { slots[$0].connection }
    }

    /// The open connections, in no particular order.
    var openConnections: [TrackedConnection] {
        connectionsByKey.values.filter { !$0.isClosed }
    }

    /// Adds an open connection, as the most recently active; its key must be free.
    mutating func insert(_ connection: TrackedConnection) {
        let slot = freeSlots.popLast() ?? slots.count
        if slot == slots.count { slots.append(Slot()) }
        connection.slot = slot
        slots[slot].connection = connection
        link(slot, asNewestIn: .open)
        connectionsByKey[connection.key] = connection
    }

    mutating func remove(_ connection: TrackedConnection) {
        let slot = connection.slot
        unlink(slot)
        slots[slot].connection = nil
        freeSlots.append(slot)
        connectionsByKey[connection.key] = nil
    }

    /// Makes `connection` the most recently active in its order.
    mutating func touch(_ connection: TrackedConnection) {
        let slot = connection.slot
        let order = slots[slot].order
        guard self[ends: order].newest != slot else { return }
        unlink(slot)
        link(slot, asNewestIn: order)
    }

    /// Moves `connection` to the closed order, as the most recently active there.
    mutating func moveToClosed(_ connection: TrackedConnection) {
        unlink(connection.slot)
        link(connection.slot, asNewestIn: .closed)
    }

    mutating func removeAll() {
        self = ConnectionTable()
    }

    private subscript(ends order: Order) -> Ends {
        get { order == .open ? openEnds : closedEnds }
        set {
            switch order {
            case .open: openEnds = newValue
            case .closed: closedEnds = newValue
            }
        }
    }

    private mutating func unlink(_ slot: Int) {
        let (older, newer, order) = (slots[slot].older, slots[slot].newer, slots[slot].order)
        if let older { slots[older].newer = newer } else { self[ends: order].oldest = newer }
        if let newer { slots[newer].older = older } else { self[ends: order].newest = older }
        slots[slot].older = nil
        slots[slot].newer = nil
    }

    private mutating func link(_ slot: Int, asNewestIn order: Order) {
        let newest = self[ends: order].newest
        slots[slot].order = order
        slots[slot].older = newest
        slots[slot].newer = nil
        if let newest { slots[newest].newer = slot } else { self[ends: order].oldest = slot }
        self[ends: order].newest = slot
    }
}
