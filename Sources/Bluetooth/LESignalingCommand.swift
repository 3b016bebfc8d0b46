import WireParsing

/// One command on the LE signalling channel (CID 0x0005, Core Vol 3 Part A §4): code (1),
/// identifier (1), data length (2, little-endian), data. The LE channel carries exactly one
/// command per frame.
public struct LESignalingCommand: Hashable, Sendable {
    public var code: UInt8
    /// Matches a response to its request.
    public var identifier: UInt8
    public var data: [UInt8]
    public var content: Content

    public enum Content: Hashable, Sendable {
        /// L2CAP_COMMAND_REJECT_RSP (0x01): reason (0 not understood, 1 MTU exceeded, 2 invalid CID).
        case commandReject(reason: UInt16)
        /// L2CAP_DISCONNECTION_REQ (0x06) / _RSP (0x07): destination and source CIDs.
        case disconnectionRequest(destination: UInt16, source: UInt16)
        case disconnectionResponse(destination: UInt16, source: UInt16)
        /// L2CAP_CONNECTION_PARAMETER_UPDATE_REQ (0x12): intervals in 1.25 ms, timeout in 10 ms.
        case connectionParameterUpdateRequest(minimumInterval: UInt16, maximumInterval: UInt16, latency: UInt16, timeout: UInt16)
        /// L2CAP_CONNECTION_PARAMETER_UPDATE_RSP (0x13): 0 accepted, 1 rejected.
        case connectionParameterUpdateResponse(result: UInt16)
        /// L2CAP_LE_CREDIT_BASED_CONNECTION_REQ (0x14).
        case leCreditBasedConnectionRequest(spsm: UInt16, sourceCID: UInt16, mtu: UInt16, mps: UInt16, initialCredits: UInt16)
        /// L2CAP_LE_CREDIT_BASED_CONNECTION_RSP (0x15).
        case leCreditBasedConnectionResponse(destinationCID: UInt16, mtu: UInt16, mps: UInt16, initialCredits: UInt16, result: UInt16)
        /// L2CAP_FLOW_CONTROL_CREDIT_IND (0x16).
        case flowControlCredit(cid: UInt16, credits: UInt16)
        /// A command kept as its code and data (the enhanced credit-based commands among them).
        case other
    }

    public static let commandRejectCode: UInt8 = 0x01
    public static let disconnectionRequestCode: UInt8 = 0x06
    public static let disconnectionResponseCode: UInt8 = 0x07
    public static let connectionParameterUpdateRequestCode: UInt8 = 0x12
    public static let connectionParameterUpdateResponseCode: UInt8 = 0x13
    public static let leCreditBasedConnectionRequestCode: UInt8 = 0x14
    public static let leCreditBasedConnectionResponseCode: UInt8 = 0x15
    public static let flowControlCreditCode: UInt8 = 0x16

    /// Reads the payload of an LE signalling frame; the command must fill it.
    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        let start = cursor.position
        code = try cursor.readUInt8("an L2CAP signalling command code")
        identifier = try cursor.readUInt8("an L2CAP signalling identifier")
        let length = Int(try cursor.readUInt16LittleEndian("an L2CAP signalling data length"))
        guard length == cursor.remainingCount else {
            throw cursor.malformed(
                "a signalling data length covering the \(cursor.remainingCount) bytes of the frame, found \(length)", at: start + 2)
        }
        var data = try cursor.readCursor(count: length)
        self.data = Array(data.bytes)
        content = try Self.decode(code, &data)
    }

    private static func decode(_ code: UInt8, _ cursor: inout ByteCursor) throws(DecodeError) -> Content {
        func field(_ what: String) throws(DecodeError) -> UInt16 {
            do {
                return try cursor.readUInt16LittleEndian(what)
            } catch {
                throw cursor.malformed("\(what) within the signalling data length")
            }
        }
        switch code {
        case commandRejectCode:
            return .commandReject(reason: try field("the reason of Command Reject"))
        case disconnectionRequestCode:
            return .disconnectionRequest(destination: try field("the destination CID"), source: try field("the source CID"))
        case disconnectionResponseCode:
            return .disconnectionResponse(destination: try field("the destination CID"), source: try field("the source CID"))
        case connectionParameterUpdateRequestCode:
            return .connectionParameterUpdateRequest(
                minimumInterval: try field("the minimum interval"), maximumInterval: try field("the maximum interval"),
                latency: try field("the peripheral latency"), timeout: try field("the supervision timeout"))
        case connectionParameterUpdateResponseCode:
            return .connectionParameterUpdateResponse(result: try field("the result of Connection Parameter Update"))
        case leCreditBasedConnectionRequestCode:
            return .leCreditBasedConnectionRequest(
                spsm: try field("the SPSM"), sourceCID: try field("the source CID"), mtu: try field("the MTU"),
                mps: try field("the MPS"), initialCredits: try field("the initial credits"))
        case leCreditBasedConnectionResponseCode:
            return .leCreditBasedConnectionResponse(
                destinationCID: try field("the destination CID"), mtu: try field("the MTU"), mps: try field("the MPS"),
                initialCredits: try field("the initial credits"), result: try field("the result"))
        case flowControlCreditCode:
            return .flowControlCredit(cid: try field("the CID"), credits: try field("the credits"))
        default:
            return .other
        }
    }
}
