import WireParsing

/// One entry of the question section (RFC 1035 §4.1.2).
public struct DNSQuestion: Sendable, Hashable {
    public var name: DNSName
    public var type: DNSRecordType
    /// QCLASS as sent, including the mDNS unicast-response bit.
    public var classField: UInt16
    /// Offset of the question's first byte.
    public var offset: Int

    public init(name: DNSName, type: DNSRecordType, classField: UInt16, offset: Int) {
        self.name = name
        self.type = type
        self.classField = classField
        self.offset = offset
    }

    /// Reads a question at the cursor; `messageStart` is where the message begins in the
    /// cursor's bytes, for compression pointers.
    public init(
        parsing cursor: inout ByteCursor, messageStart: Int = 0, options: DNSDecodingOptions = DNSDecodingOptions()
    ) throws(DecodeError) {
        offset = cursor.offset
        name = try DNSName(parsing: &cursor, messageStart: messageStart, maxPointerJumps: options.maxPointerJumps)
        type = DNSRecordType(try cursor.readUInt16BigEndian("QTYPE"))
        classField = try cursor.readUInt16BigEndian("QCLASS")
    }

    /// The class without the unicast-response bit.
    public var questionClass: DNSClass { DNSClass(classField & 0x7FFF) }

    /// The "QU" bit: the querier asks for a unicast reply (RFC 6762 §5.4, §18.12).
    /// Meaningful only in mDNS; in unicast DNS the bit belongs to the class.
    public var prefersUnicastResponse: Bool { classField & 0x8000 != 0 }
}
