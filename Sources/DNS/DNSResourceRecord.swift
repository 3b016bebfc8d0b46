import WireParsing

/// One resource record of the answer, authority or additional section (RFC 1035 §4.1.3).
public struct DNSResourceRecord: Sendable, Hashable {
    public var name: DNSName
    public var type: DNSRecordType
    /// CLASS as sent, including the mDNS cache-flush bit. For OPT it is the UDP payload size.
    public var classField: UInt16
    public var ttl: UInt32
    public var data: DNSRecordData
    /// Offset of the record's first byte (its owner name).
    public var offset: Int
    /// Offset of the first byte of the record data.
    public var dataOffset: Int
    /// RDLENGTH.
    public var dataLength: Int

    public init(
        name: DNSName, type: DNSRecordType, classField: UInt16, ttl: UInt32, data: DNSRecordData, offset: Int,
        dataOffset: Int, dataLength: Int
    ) {
        self.name = name
        self.type = type
        self.classField = classField
        self.ttl = ttl
        self.data = data
        self.offset = offset
        self.dataOffset = dataOffset
        self.dataLength = dataLength
    }

    /// Reads a record at the cursor; `messageStart` is where the message begins in the
    /// cursor's bytes, for compression pointers.
    ///
    /// A record whose RDLENGTH reaches past the input throws: nothing after it can be
    /// found. Data that fits RDLENGTH but not its type becomes `.undecodable` unless
    /// `options.isStrict`, and the cursor moves on to the next record either way.
    public init(
        parsing cursor: inout ByteCursor, messageStart: Int = 0, options: DNSDecodingOptions = DNSDecodingOptions()
    ) throws(DecodeError) {
        offset = cursor.offset
        name = try DNSName(parsing: &cursor, messageStart: messageStart, maxPointerJumps: options.maxPointerJumps)
        type = DNSRecordType(try cursor.readUInt16BigEndian("TYPE"))
        classField = try cursor.readUInt16BigEndian("CLASS")
        ttl = try cursor.readUInt32BigEndian("TTL")
        dataLength = Int(try cursor.readUInt16BigEndian("RDLENGTH"))
        dataOffset = cursor.offset
        guard dataLength <= cursor.remainingCount else {
            throw cursor.truncated("\(type) record data of \(dataLength) bytes (RDLENGTH), \(cursor.remainingCount) remain")
        }
        let dataStart = cursor.position
        var reader = cursor
        do {
            data = try DNSRecordData(
                parsing: &reader, type: type, classField: classField, ttl: ttl, dataEnd: dataStart + dataLength,
                messageStart: messageStart, options: options)
        } catch {
            if options.isStrict { throw error }
            data = .undecodable(try cursor.readBytes(count: dataLength), error)
            return
        }
        try cursor.skip(count: dataLength)
    }

    /// The class without the cache-flush bit.
    public var recordClass: DNSClass { DNSClass(classField & 0x7FFF) }

    /// The mDNS cache-flush bit: this record replaces every cached record of the same name,
    /// type and class (RFC 6762 §10.2, §18.13). Meaningless for OPT and in unicast DNS.
    public var cacheFlush: Bool { type != .opt && classField & 0x8000 != 0 }

    /// TTL zero in mDNS: the record is withdrawn (RFC 6762 §10.1).
    public var isGoodbye: Bool { ttl == 0 }
}
