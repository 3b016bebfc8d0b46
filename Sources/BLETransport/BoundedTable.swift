/// A table of at most `capacity` entries: admitting a new key forgets the oldest one, so that
/// per-accessory state stays within a named limit (`ble.advertisers`).
struct BoundedTable<Key: Hashable, Value> {
    let capacity: Int
    private var entries: [Key: Value] = [:]
    private var order: [Key] = []
    /// Entries forgotten to stay within `capacity`.
    private(set) var forgotten = 0

    init(capacity: Int) {
        self.capacity = capacity
    }

    subscript(key: Key) -> Value? { entries[key] }

    /// Changes the entry of `key`, starting from `initial` when there is none.
    mutating func update(_ key: Key, initial: @autoclosure () -> Value, _ change: (inout Value) -> Void) {
        if entries[key] == nil {
            if order.count >= capacity, !order.isEmpty {
                entries.removeValue(forKey: order.removeFirst())
                forgotten += 1
            }
            order.append(key)
        }
        change(&entries[key, default: initial()])
    }

    /// Sets the entry of `key`, admitting it when new.
    mutating func set(_ key: Key, _ value: Value) {
        update(key, initial: value) { $0 = value }
    }
}
