/// An A or AAAA record of a service's target host, found in the same message.
public struct AdvertisedAddress: Sendable, Hashable {
    public var address: DNSAddress
    public var ttl: UInt32
    /// The record replaces cached addresses of the host (RFC 6762 §10.2).
    public var cacheFlush: Bool
    /// Offset of the address record.
    public var offset: Int

    public init(address: DNSAddress, ttl: UInt32, cacheFlush: Bool, offset: Int) {
        self.address = address
        self.ttl = ttl
        self.cacheFlush = cacheFlush
        self.offset = offset
    }
}
