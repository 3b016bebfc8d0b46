import WireParsing

/// NSEC record data: the next owner name and the record types that exist for this owner
/// (RFC 4034 §4.1). mDNS responders use it to say "no other types exist for this name"
/// (RFC 6762 §6.1), with the owner itself as the next name and only the first type window.
public struct DNSNextSecure: Sendable, Hashable {
    public var nextName: DNSName
    /// The types in the bitmap, in increasing order.
    public var types: [DNSRecordType]

    public init(nextName: DNSName, types: [DNSRecordType]) {
        self.nextName = nextName
        self.types = types
    }

    /// Reads NSEC data at the cursor (a cursor over the whole message) ending at `dataEnd`.
    /// mDNS compresses the next name (RFC 6762 §18.14).
    init(parsing cursor: inout ByteCursor, dataEnd: Int, messageStart: Int, options: DNSDecodingOptions) throws(DecodeError) {
        nextName = try DNSName(
            parsing: &cursor, messageStart: messageStart, inlineEnd: dataEnd, maxPointerJumps: options.maxPointerJumps)
        var bitmaps = try cursor.readCursor(count: dataEnd - cursor.position, "the type bitmaps")
        types = try Self.parseTypeBitmaps(&bitmaps)
    }

    /// RFC 4034 §4.1.2: blocks of (window number, bitmap length 1–32, bitmap), windows in
    /// increasing order; bit 0 of the first byte is type `window × 256`.
    static func parseTypeBitmaps(_ cursor: inout ByteCursor) throws(DecodeError) -> [DNSRecordType] {
        var types: [DNSRecordType] = []
        var previousWindow = -1
        while !cursor.isAtEnd {
            let windowPosition = cursor.position
            let window = Int(try cursor.readUInt8("a type bitmap window number"))
            guard window > previousWindow else {
                throw cursor.malformed("type bitmap windows in increasing order (RFC 4034 §4.1.2)", at: windowPosition)
            }
            previousWindow = window
            let lengthPosition = cursor.position
            let length = Int(try cursor.readUInt8("a type bitmap length"))
            guard (1...32).contains(length) else {
                throw cursor.malformed("a type bitmap length of 1 to 32 (RFC 4034 §4.1.2), not \(length)", at: lengthPosition)
            }
            let bitmap = try cursor.read(count: length, "a type bitmap")
            for byteIndex in 0..<length {
                let byte = bitmap.unsafeLoad(fromByteOffset: byteIndex, as: UInt8.self)
                guard byte != 0 else { continue }
                for bit in 0..<8 where byte & (0x80 >> bit) != 0 {
                    types.append(DNSRecordType(UInt16(window << 8 | byteIndex << 3 | bit)))
                }
            }
        }
        return types
    }
}
