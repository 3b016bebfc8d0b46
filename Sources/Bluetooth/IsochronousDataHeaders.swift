import WireParsing

/// The header of an HCI synchronous (SCO) data packet (Core Vol 4 Part E §5.4.3): the
/// connection handle (12 bits) and packet status flag (2 bits) in one little-endian word, then
/// the data length (1). HAP does not use SCO; the header is read so that the packet is
/// accounted for and its length checked.
public struct SynchronousDataHeader: Hashable, Sendable {
    public var handle: UInt16
    public var packetStatus: UInt8
    public var dataLength: Int

    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        let start = cursor.position
        let word = try cursor.readUInt16LittleEndian("the handle and flags of a SCO header")
        handle = word & 0x0FFF
        packetStatus = UInt8(word >> 12 & 0x03)
        dataLength = Int(try cursor.readUInt8("the data length of a SCO header"))
        try cursor.requireLength(dataLength, of: "SCO data", lengthAt: start + 2)
    }
}

/// The header of an HCI ISO data packet (Core Vol 4 Part E §5.4.5): the connection handle
/// (12 bits), packet-boundary flag (2 bits) and timestamp flag (1 bit) in one little-endian
/// word, then the data load length (14 bits of a little-endian word). HAP does not use ISO.
public struct ISODataHeader: Hashable, Sendable {
    public var handle: UInt16
    /// 0b00 first fragment, 0b01 continuation, 0b10 complete SDU, 0b11 last fragment.
    public var packetBoundary: UInt8
    /// A 4-byte timestamp starts the data load of a first fragment or complete SDU.
    public var hasTimestamp: Bool
    public var dataLength: Int

    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        let start = cursor.position
        let word = try cursor.readUInt16LittleEndian("the handle and flags of an ISO header")
        handle = word & 0x0FFF
        packetBoundary = UInt8(word >> 12 & 0x03)
        hasTimestamp = word & 0x4000 != 0
        dataLength = Int(try cursor.readUInt16LittleEndian("the data load length of an ISO header") & 0x3FFF)
        try cursor.requireLength(dataLength, of: "ISO data", lengthAt: start + 2)
    }
}
