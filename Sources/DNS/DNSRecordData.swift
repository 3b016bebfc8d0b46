import WireParsing

/// The RDATA of a resource record, typed by the record's TYPE.
public enum DNSRecordData: Sendable, Hashable {
    /// A (RFC 1035 §3.4.1) or AAAA (RFC 3596 §2.2): the family tells which.
    case address(DNSAddress)
    /// PTR (RFC 1035 §3.3.12). In DNS-SD: service type → service instance (RFC 6763 §4.1).
    case pointer(DNSName)
    /// CNAME (RFC 1035 §3.3.1).
    case canonicalName(DNSName)
    case serviceLocation(DNSServiceLocation)
    case text(DNSTextStrings)
    case nextSecure(DNSNextSecure)
    case options(DNSOptRecord)
    case hostInfo(DNSHostInfo)
    /// A type this decoder does not interpret, its data kept byte for byte.
    case unknown([UInt8])
    /// Data whose RDLENGTH framing held but whose content does not fit the record's type,
    /// kept byte for byte with the reason (a lenient decode only).
    case undecodable([UInt8], DecodeError)

    /// Decodes the data of one record. `cursor` is a cursor over the whole message, at the
    /// first byte of the data; `dataEnd` (inside the cursor's bytes) is where RDLENGTH ends
    /// it. On success the cursor is left at `dataEnd`.
    ///
    /// All `dataEnd - cursor.position` bytes are present, so a read past `dataEnd` means the
    /// data disagrees with its own length: that is thrown as malformed, never truncated.
    init(
        parsing cursor: inout ByteCursor, type: DNSRecordType, classField: UInt16, ttl: UInt32, dataEnd: Int,
        messageStart: Int, options: DNSDecodingOptions
    ) throws(DecodeError) {
        do {
            self = try Self.decode(
                &cursor, type: type, classField: classField, ttl: ttl, dataEnd: dataEnd, messageStart: messageStart,
                options: options)
        } catch where error.code == .truncated {
            throw DecodeError(.malformed, layer: error.layer, offset: error.offset, expected: "\(error.expected) within RDLENGTH")
        }
        guard cursor.position == dataEnd else {
            throw cursor.malformed("\(type) data that ends at RDLENGTH, not \(dataEnd - cursor.position) bytes before it")
        }
    }

    private static func decode(
        _ cursor: inout ByteCursor, type: DNSRecordType, classField: UInt16, ttl: UInt32, dataEnd: Int,
        messageStart: Int, options: DNSDecodingOptions
    ) throws(DecodeError) -> DNSRecordData {
        let dataLength = dataEnd - cursor.position
        switch type {
        case .a:
            guard dataLength == 4 else { throw cursor.malformed("A data of 4 bytes, not \(dataLength)") }
            return .address(try DNSAddress(parsingIPv4: &cursor))
        case .aaaa:
            guard dataLength == 16 else { throw cursor.malformed("AAAA data of 16 bytes, not \(dataLength)") }
            return .address(try DNSAddress(parsingIPv6: &cursor))
        case .ptr, .cname:
            let name = try DNSName(
                parsing: &cursor, messageStart: messageStart, inlineEnd: dataEnd, maxPointerJumps: options.maxPointerJumps)
            return type == .ptr ? .pointer(name) : .canonicalName(name)
        case .srv:
            return .serviceLocation(
                try DNSServiceLocation(parsing: &cursor, dataEnd: dataEnd, messageStart: messageStart, options: options))
        case .txt:
            var data = try cursor.readCursor(count: dataLength)
            return .text(try DNSTextStrings(parsing: &data))
        case .nsec:
            return .nextSecure(
                try DNSNextSecure(parsing: &cursor, dataEnd: dataEnd, messageStart: messageStart, options: options))
        case .opt:
            var data = try cursor.readCursor(count: dataLength)
            return .options(try DNSOptRecord(parsing: &data, classField: classField, ttl: ttl))
        case .hinfo:
            var data = try cursor.readCursor(count: dataLength)
            return .hostInfo(try DNSHostInfo(parsing: &data))
        default:
            return .unknown(try cursor.readBytes(count: dataLength))
        }
    }
}
