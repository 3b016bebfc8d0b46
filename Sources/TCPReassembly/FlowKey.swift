import Packets

/// The two endpoints of a connection in a fixed order, so that both directions of a
/// connection find the same entry. Plain integers: comparing, ordering and hashing a key, on
/// every segment, take a few machine instructions and allocate nothing.
struct FlowKey: Hashable {
    /// An endpoint as three words, equal exactly when the endpoints are equal.
    struct PackedEndpoint: Hashable, Comparable {
        let high: UInt64
        let low: UInt64
        /// The port, and above it which family the address belongs to.
        let familyAndPort: UInt32

        init(_ endpoint: Endpoint) {
            switch endpoint.address {
            case .v4(let address):
                (high, low, familyAndPort) = (0, UInt64(address), 4 << 16 | UInt32(endpoint.port))
            case .v6(let high, let low):
                (self.high, self.low, familyAndPort) = (high, low, 6 << 16 | UInt32(endpoint.port))
            }
        }

        static func < (lhs: PackedEndpoint, rhs: PackedEndpoint) -> Bool {
            (lhs.high, lhs.low, lhs.familyAndPort) < (rhs.high, rhs.low, rhs.familyAndPort)
        }

        /// Feeds the hasher as few words as tell endpoints apart: one for IPv4, three for IPv6.
        /// What is fed stays a one-to-one function of the endpoint, so the seeded hash keeps
        /// its resistance to crafted collisions.
        func hash(into hasher: inout Hasher) {
            if high == 0, low <= UInt64(UInt32.max), familyAndPort >> 16 == 4 {
                hasher.combine(low << 32 | UInt64(familyAndPort))
            } else {
                hasher.combine(high)
                hasher.combine(low)
                hasher.combine(familyAndPort)
            }
        }
    }

    let lower: PackedEndpoint
    let upper: PackedEndpoint

    init(_ one: Endpoint, _ other: Endpoint) {
        let one = PackedEndpoint(one)
        let other = PackedEndpoint(other)
        (lower, upper) = other < one ? (other, one) : (one, other)
    }
}
