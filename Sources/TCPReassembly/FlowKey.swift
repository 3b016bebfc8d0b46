import Packets

/// The two endpoints of a connection in a fixed order, so that both directions of a
/// connection find the same entry. A value of fixed size: hashing it allocates nothing.
struct FlowKey: Hashable {
    let lower: Endpoint
    let upper: Endpoint

    init(_ one: Endpoint, _ other: Endpoint) {
        if other < one {
            lower = other
            upper = one
        } else {
            lower = one
            upper = other
        }
    }
}
