import WireParsing

/// An HCI command packet (Core Vol 4 Part E §5.4.1): opcode (2, little-endian), parameter
/// length (1), parameters. The cursor is positioned after the H4 indicator and must end with
/// the parameters: a parameter length that reaches past the packet is truncated, bytes after
/// them are malformed.
public struct HCICommand: Hashable, Sendable {
    public var opcode: HCIOpcode
    /// The parameters as sent.
    public var parameters: [UInt8]
    /// What the parameters say, for the commands the analysis reads.
    public var content: Content

    public enum Content: Hashable, Sendable {
        /// Disconnect: connection handle and reason (an HCI error code).
        case disconnect(handle: UInt16, reason: HCIStatus)
        /// LE Set Advertising Data / LE Set Scan Response Data: the significant bytes of the
        /// 31-byte field, as the length byte in front of it announces.
        case advertisingData(AdvertisingData)
        case scanResponseData(AdvertisingData)
        /// A command whose parameters this decoder keeps only as bytes.
        case other
    }

    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        let start = cursor.offset
        opcode = HCIOpcode(rawValue: try cursor.readUInt16LittleEndian("an HCI command opcode"))
        let length = Int(try cursor.readUInt8("an HCI command parameter length"))
        var parameterCursor = try cursor.readCursor(count: length, "the \(length) bytes of \(opcode) parameters")
        try cursor.requireEnd(after: "an HCI command", startingAt: start)
        parameters = Array(parameterCursor.bytes)
        switch opcode {
        case .disconnect:
            let handle = try parameterCursor.readConnectionHandle("the connection handle of Disconnect")
            content = .disconnect(handle: handle, reason: HCIStatus(rawValue: try parameterCursor.readUInt8("the reason of Disconnect")))
        case .leSetAdvertisingData, .leSetScanResponseData:
            let significant = Int(try parameterCursor.readUInt8("the advertising data length"))
            guard significant <= AdvertisingData.legacyMaximumLength else {
                throw parameterCursor.malformed("an advertising data length of at most 31, found \(significant)", at: 0)
            }
            let dataStart = parameterCursor.offset
            let data = try parameterCursor.read(count: significant, "the \(significant) significant advertising data bytes")
            var adCursor = ByteCursor(data, layer: .advertisingData, baseOffset: dataStart)
            let advertising = AdvertisingData(parsingLeniently: &adCursor)
            content = opcode == .leSetAdvertisingData ? .advertisingData(advertising) : .scanResponseData(advertising)
        default:
            content = .other
        }
    }
}
