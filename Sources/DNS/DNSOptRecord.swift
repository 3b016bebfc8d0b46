import WireParsing

/// The EDNS(0) OPT pseudo-record (RFC 6891 §6.1). Its CLASS and TTL fields are not a class
/// and a TTL: they carry the sender's UDP payload size and extended flags, decoded here.
/// mDNS responders use it for the Owner option of sleep proxies.
public struct DNSOptRecord: Sendable, Hashable {
    /// The largest UDP payload the sender can reassemble (the record's CLASS field).
    public var udpPayloadSize: UInt16
    /// The upper eight bits of the 12-bit extended RCODE (RFC 6891 §6.1.3).
    public var extendedResponseCode: UInt8
    public var version: UInt8
    /// The 16 flag bits; the top one is DO (RFC 3225).
    public var flags: UInt16
    public var options: [Option]

    public init(udpPayloadSize: UInt16, extendedResponseCode: UInt8, version: UInt8, flags: UInt16, options: [Option]) {
        self.udpPayloadSize = udpPayloadSize
        self.extendedResponseCode = extendedResponseCode
        self.version = version
        self.flags = flags
        self.options = options
    }

    /// Reads OPT data: every byte of the cursor, with the record's CLASS and TTL fields.
    public init(parsing cursor: inout ByteCursor, classField: UInt16, ttl: UInt32) throws(DecodeError) {
        udpPayloadSize = classField
        extendedResponseCode = UInt8(truncatingIfNeeded: ttl >> 24)
        version = UInt8(truncatingIfNeeded: ttl >> 16)
        flags = UInt16(truncatingIfNeeded: ttl)
        var options: [Option] = []
        while !cursor.isAtEnd {
            let code = try cursor.readUInt16BigEndian("an option code")
            let length = Int(try cursor.readUInt16BigEndian("an option length"))
            let data = try cursor.readBytes(count: length, "option data of \(length) bytes")
            options.append(Option(code: code, data: data))
        }
        self.options = options
    }

    /// DO: the sender understands DNSSEC records (RFC 3225 §3).
    public var isDNSSECOK: Bool { flags & 0x8000 != 0 }

    /// One EDNS option, its data kept raw (RFC 6891 §6.1.2).
    public struct Option: Sendable, Hashable, CustomStringConvertible {
        public var code: UInt16
        public var data: [UInt8]

        public init(code: UInt16, data: [UInt8]) {
            self.code = code
            self.data = data
        }

        /// The option's registered name where one is widely seen, else `OPTION<n>`.
        public var name: String {
            switch code {
            case 3: "NSID"
            case 4: "Owner"
            case 5: "DAU"
            case 8: "Client Subnet"
            case 10: "Cookie"
            case 11: "TCP Keepalive"
            case 12: "Padding"
            case 15: "Extended DNS Error"
            default: "OPTION\(code)"
            }
        }

        public var description: String { "\(name) (\(data.count) bytes: \(Hex.encode(data)))" }
    }
}
