import WireParsing

/// The decrypted payload of an event the accessory PUTs to the controller over CoAP: records
/// of a byte, the characteristic's IID (2) and a body length (2), all little-endian, then the
/// body, whose HAP-Param-Value is the new value (aiohomekit `controller/coap/connection.py`,
/// `EventResource.render_put`, which ignores the first byte and takes the aid as 1).
public struct HAPCoAPEvent: Hashable, Sendable {
    public struct Record: Hashable, Sendable {
        /// The byte aiohomekit ignores (0 in the accessories observed).
        public var leadingByte: UInt8
        public var instanceID: UInt16
        /// The body: TLVs, HAP-Param-Value among them; empty for an event without a value.
        public var body: [UInt8]
        /// The absolute offset of the record's first byte.
        public var offset: Int
    }

    /// The most records one payload may hold.
    public static let maximumRecordCount = 256

    public var records: [Record]

    /// Reads every record of the payload (layer `hapPDU`); one that runs past the end is truncated.
    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        records = []
        while !cursor.isAtEnd {
            guard records.count < Self.maximumRecordCount else {
                throw cursor.limitExceeded("at most \(Self.maximumRecordCount) event records in one payload")
            }
            let offset = cursor.offset
            let leadingByte = try cursor.readUInt8("the first byte of an event record")
            let iid = try cursor.readUInt16LittleEndian("the IID of an event record")
            let length = Int(try cursor.readUInt16LittleEndian("the body length of an event record"))
            let body = try cursor.readBytes(count: length, "the \(length)-byte body of an event record")
            records.append(Record(leadingByte: leadingByte, instanceID: iid, body: body, offset: offset))
        }
    }
}
