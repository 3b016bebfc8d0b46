/// The connections being followed, found by flow key, and kept in two orders of recent
/// activity, one for open connections and one for closed connections awaiting their last
/// packets, so that the least recently active of each is found in constant time.
///
/// Entries live by value in a dense array and are read and changed in place; the orders are
/// doubly linked lists threaded through the array by index. Removing an entry moves the last
/// one into its place, so a slot index is valid only until the next removal.
struct ConnectionTable {
    enum Order {
        case open
        case closed
    }

    private struct Link {
        var order = Order.open
        var older: Int?
        var newer: Int?
    }

    private struct Ends {
        var oldest: Int?
        var newest: Int?
    }

    private var slotsByKey: [FlowKey: Int] = [:]
    private var entries: [ConnectionEntry] = []
    private var links: [Link] = []
    private var openEnds = Ends()
    private var closedEnds = Ends()
    /// The key and slot of the last connection found: consecutive segments mostly belong to
    /// the same connection, and comparing a key is much cheaper than hashing it.
    private var recent: (key: FlowKey, slot: Int)?

    var count: Int { entries.count }

    mutating func slot(for key: FlowKey) -> Int? {
        if let recent, recent.key == key { return recent.slot }
        guard let slot = slotsByKey[key] else { return nil }
        recent = (key, slot)
        return slot
    }


    subscript(slot: Int) -> ConnectionEntry {
        _read { yield entries[slot] }
        _modify { yield &entries[slot] }
    }

    func order(of slot: Int) -> Order { links[slot].order }

    /// The slot of the least recently active connection in `order`.
    func oldest(_ order: Order) -> Int? { self[ends: order].oldest }

    /// The slots of the open connections, in no particular order.
    var openSlots: [Int] {
        links.indices.filter { links[$0].order == .open }
    }

    /// Adds an open connection, as the most recently active; its key must be free.
    mutating func insert(_ entry: ConnectionEntry) -> Int {
        let slot = entries.count
        entries.append(entry)
        links.append(Link())
        link(slot, asNewestIn: .open)
        slotsByKey[entry.key] = slot
        return slot
    }

    /// Removes the connection in `slot`, moving the last entry into its place.
    mutating func remove(_ slot: Int) {
        recent = nil
        unlink(slot)
        slotsByKey[entries[slot].key] = nil
        let last = entries.count - 1
        if slot != last {
            entries.swapAt(slot, last)
            links.swapAt(slot, last)
            slotsByKey[entries[slot].key] = slot
            relink(movedFrom: last, to: slot)
        }
        entries.removeLast()
        links.removeLast()
    }

    /// Makes the connection in `slot` the most recently active in its order.
    mutating func touch(_ slot: Int) {
        let order = links[slot].order
        guard self[ends: order].newest != slot else { return }
        unlink(slot)
        link(slot, asNewestIn: order)
    }

    /// Moves a connection to the closed order, as the most recently active there.
    mutating func moveToClosed(_ slot: Int) {
        unlink(slot)
        link(slot, asNewestIn: .closed)
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
        let link = links[slot]
        if let older = link.older { links[older].newer = link.newer } else { self[ends: link.order].oldest = link.newer }
        if let newer = link.newer { links[newer].older = link.older } else { self[ends: link.order].newest = link.older }
        links[slot].older = nil
        links[slot].newer = nil
    }

    private mutating func link(_ slot: Int, asNewestIn order: Order) {
        let newest = self[ends: order].newest
        links[slot] = Link(order: order, older: newest, newer: nil)
        if let newest { links[newest].newer = slot } else { self[ends: order].oldest = slot }
        self[ends: order].newest = slot
    }

    /// Points the neighbours of an entry that moved from `old` to `new` at its new slot.
    private mutating func relink(movedFrom old: Int, to new: Int) {
        let link = links[new]
        if let older = link.older { links[older].newer = new } else { self[ends: link.order].oldest = new }
        if let newer = link.newer { links[newer].older = new } else { self[ends: link.order].newest = new }
    }
}
