import WireParsing

/// SRV record data: where a service instance listens (RFC 2782). In DNS-SD the owner is the
/// service instance name (RFC 6763 §5).
public struct DNSServiceLocation: Sendable, Hashable {
    public var priority: UInt16
    public var weight: UInt16
    public var port: UInt16
    /// The host to connect to; its A and AAAA records give the addresses.
    public var target: DNSName

    public init(priority: UInt16, weight: UInt16, port: UInt16, target: DNSName) {
        self.priority = priority
        self.weight = weight
        self.port = port
        self.target = target
    }

    /// Reads SRV data at the cursor (a cursor over the whole message) ending at `dataEnd`.
    /// mDNS compresses the target name like any other (RFC 6762 §18.14).
    init(parsing cursor: inout ByteCursor, dataEnd: Int, messageStart: Int, options: DNSDecodingOptions) throws(DecodeError) {
        guard dataEnd - cursor.position > 6 else {
            throw cursor.malformed("SRV data of priority, weight, port and a target name (RFC 2782): 7 bytes at least")
        }
        priority = try cursor.readUInt16BigEndian("the SRV priority")
        weight = try cursor.readUInt16BigEndian("the SRV weight")
        port = try cursor.readUInt16BigEndian("the SRV port")
        target = try DNSName(
            parsing: &cursor, messageStart: messageStart, inlineEnd: dataEnd, maxPointerJumps: options.maxPointerJumps)
    }
}
