import WireParsing

/// The 12-byte header of a DNS message (RFC 1035 §4.1.1; flag bits as registered in
/// RFC 6895 §2).
///
/// The flags are kept as sent and read through typed accessors, so that nothing is lost
/// when a sender sets bits mDNS says must be zero.
public struct DNSHeader: Sendable, Hashable {
    public static let byteCount = 12

    /// The query identifier; zero in multicast mDNS messages (RFC 6762 §18.1).
    public var id: UInt16
    /// The second 16-bit word: QR, OPCODE, AA, TC, RD, RA, Z, AD, CD and RCODE.
    public var flags: UInt16
    public var questionCount: UInt16
    public var answerCount: UInt16
    public var authorityCount: UInt16
    public var additionalCount: UInt16

    public init(
        id: UInt16, flags: UInt16, questionCount: UInt16, answerCount: UInt16,
        authorityCount: UInt16, additionalCount: UInt16
    ) {
        self.id = id
        self.flags = flags
        self.questionCount = questionCount
        self.answerCount = answerCount
        self.authorityCount = authorityCount
        self.additionalCount = additionalCount
    }

    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        id = try cursor.readUInt16BigEndian("the message ID")
        flags = try cursor.readUInt16BigEndian("the header flags")
        questionCount = try cursor.readUInt16BigEndian("QDCOUNT")
        answerCount = try cursor.readUInt16BigEndian("ANCOUNT")
        authorityCount = try cursor.readUInt16BigEndian("NSCOUNT")
        additionalCount = try cursor.readUInt16BigEndian("ARCOUNT")
    }

    /// QR: a response rather than a query.
    public var isResponse: Bool { flags & 0x8000 != 0 }
    public var opcode: Opcode { Opcode(rawValue: UInt8(truncatingIfNeeded: flags >> 11) & 0x0F) }
    /// AA: set in every mDNS response (RFC 6762 §18.4).
    public var isAuthoritativeAnswer: Bool { flags & 0x0400 != 0 }
    /// TC. In an mDNS query it means more known answers follow in later packets
    /// (RFC 6762 §18.5).
    public var isTruncated: Bool { flags & 0x0200 != 0 }
    public var isRecursionDesired: Bool { flags & 0x0100 != 0 }
    public var isRecursionAvailable: Bool { flags & 0x0080 != 0 }
    /// Z: reserved, zero on the wire.
    public var isReservedBitSet: Bool { flags & 0x0040 != 0 }
    /// AD (RFC 4035 §3.2.3).
    public var isAuthenticData: Bool { flags & 0x0020 != 0 }
    /// CD (RFC 4035 §3.2.2).
    public var isCheckingDisabled: Bool { flags & 0x0010 != 0 }
    /// RCODE, the low four bits; OPT carries eight more (RFC 6891 §6.1.3).
    public var responseCode: ResponseCode { ResponseCode(rawValue: UInt8(truncatingIfNeeded: flags) & 0x0F) }

    /// The kind of query (RFC 1035 §4.1.1). mDNS uses only 0 (RFC 6762 §18.3).
    public struct Opcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let query = Opcode(rawValue: 0)
        public static let status = Opcode(rawValue: 2)
        public static let notify = Opcode(rawValue: 4)
        public static let update = Opcode(rawValue: 5)

        public var description: String {
            switch rawValue {
            case 0: "QUERY"
            case 1: "IQUERY"
            case 2: "STATUS"
            case 4: "NOTIFY"
            case 5: "UPDATE"
            case 6: "DSO"
            default: "OPCODE\(rawValue)"
            }
        }
    }

    /// The outcome of a query (RFC 1035 §4.1.1). mDNS uses only 0 (RFC 6762 §18.11).
    public struct ResponseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let noError = ResponseCode(rawValue: 0)
        public static let formatError = ResponseCode(rawValue: 1)
        public static let serverFailure = ResponseCode(rawValue: 2)
        public static let nameError = ResponseCode(rawValue: 3)
        public static let notImplemented = ResponseCode(rawValue: 4)
        public static let refused = ResponseCode(rawValue: 5)

        public var description: String {
            switch rawValue {
            case 0: "NOERROR"
            case 1: "FORMERR"
            case 2: "SERVFAIL"
            case 3: "NXDOMAIN"
            case 4: "NOTIMP"
            case 5: "REFUSED"
            default: "RCODE\(rawValue)"
            }
        }
    }
}
