/// How HAP bodies write their scalar fields, read leniently: the forms real devices send are
/// accepted, anything else is nil and the caller reports it.
extension JSONValue {
    /// An `aid` or `iid`: a whole number from 1 to 2^64 − 1 (ADK parses both as u64; real bridges
    /// use aids above 2^32). Written as an integer, or with a fraction or exponent when whole.
    var hapInstanceID: UInt64? {
        guard let id = numberValue?.uint64Value, id >= 1 else { return nil }
        return id
    }

    /// A HAP boolean: `true`/`false`, or `1`/`0` (HAP quirk: ADK and the Home app write numbers).
    var hapBool: Bool? {
        if let bool = boolValue { return bool }
        switch numberValue?.int64Value {
        case 0: return false
        case 1: return true
        default: return nil
        }
    }

    /// A whole number.
    var hapInteger: Int64? {
        numberValue?.int64Value
    }

    /// A non-negative whole number that fits an `Int` (lengths, `ttl`).
    var hapLength: Int? {
        numberValue?.uint64Value.flatMap { Int(exactly: $0) }
    }
}
