import WireParsing

/// One HAP PDU: the codec HAP-BLE (one PDU, or one fragment of it, per GATT value) and HAP over
/// CoAP (whole PDUs, concatenated in one payload) share (HAP: HAP PDU Format; HomeKitADK
/// `HAPBLEPDU.c`; aiohomekit `pdu.py` and `controller/coap/pdu.py`).
///
/// | kind | layout (multi-byte fields little-endian) |
/// |---|---|
/// | request | control, opcode, TID, IID (2, or 8 with the 64-bit bit), [body length (2), body] |
/// | response | control, TID, status, [body length (2), body] |
/// | continuation | control (bit 7 set), TID, more body bytes |
///
/// A first fragment announces the whole body's length and carries what fits; the rest follows
/// in continuations (`PDUReassembler` joins them). Bodies are copied, since fragments must be
/// kept until the PDU is whole.
public enum HAPPDU: Hashable, Sendable {
    case request(HAPPDURequest)
    case response(HAPPDUResponse)
    case continuation(HAPPDUContinuation)

    public var control: HAPPDUControlField {
        switch self {
        case .request(let request): request.control
        case .response(let response): response.control
        case .continuation(let continuation): continuation.control
        }
    }

    public var transactionID: UInt8 {
        switch self {
        case .request(let request): request.transactionID
        case .response(let response): response.transactionID
        case .continuation(let continuation): continuation.transactionID
        }
    }

    /// Reads one PDU or fragment filling the rest of `cursor` (layer `hapPDU`), as HAP-BLE
    /// carries them: a body shorter than its announced length is a first fragment; bytes past
    /// the announced length are malformed (HomeKitADK: "Excess data after PDU").
    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        try self.init(parsing: &cursor, requiresWholeBody: false)
        guard cursor.isAtEnd else {
            throw cursor.malformed("the end of the PDU after its announced body, found \(cursor.remainingCount) more bytes")
        }
    }

    /// Reads PDUs back to back until `cursor` ends, as HAP over CoAP batches them (aiohomekit
    /// `encode_all_pdus`, `decode_all_pdus`): every PDU carries its body length and its whole
    /// body; one running past the end is truncated.
    public static func sequence(parsing cursor: inout ByteCursor, maximumCount: Int = 256) throws(DecodeError) -> [HAPPDU] {
        var pdus: [HAPPDU] = []
        while !cursor.isAtEnd {
            guard pdus.count < maximumCount else {
                throw cursor.limitExceeded("at most \(maximumCount) PDUs in one payload")
            }
            pdus.append(try HAPPDU(parsing: &cursor, requiresWholeBody: true))
        }
        return pdus
    }

    private init(parsing cursor: inout ByteCursor, requiresWholeBody: Bool) throws(DecodeError) {
        let start = cursor.position
        let control = HAPPDUControlField(rawValue: try cursor.readUInt8("a HAP PDU control field"))
        guard !control.hasReservedBits, !control.hasExtendedLength, let type = control.type else {
            throw cursor.malformed("a HAP PDU control field with reserved bits clear and type request or response, found \(control)", at: start)
        }
        if control.isContinuation {
            guard !requiresWholeBody else {
                throw cursor.malformed("a whole PDU in a CoAP payload, found a continuation fragment", at: start)
            }
            let tid = try cursor.readUInt8("the TID of a continuation fragment")
            self = .continuation(HAPPDUContinuation(control: control, transactionID: tid, body: Array(cursor.readRemaining())))
            return
        }
        switch type {
        case .request:
            let opcode = HAPOpcode(rawValue: try cursor.readUInt8("a HAP PDU opcode"))
            let tid = try cursor.readUInt8("the TID of a HAP PDU request")
            let iid = control.uses64BitInstanceIDs
                ? try cursor.readUInt64LittleEndian("a 64-bit instance ID")
                : UInt64(try cursor.readUInt16LittleEndian("a 16-bit instance ID"))
            let (length, body) = try Self.readBody(&cursor, requiresWholeBody: requiresWholeBody)
            self = .request(HAPPDURequest(control: control, opcode: opcode, transactionID: tid, instanceID: iid, bodyLength: length, body: body))
        case .response:
            let tid = try cursor.readUInt8("the TID of a HAP PDU response")
            let status = HAPPDUStatus(rawValue: try cursor.readUInt8("the status of a HAP PDU response"))
            let (length, body) = try Self.readBody(&cursor, requiresWholeBody: requiresWholeBody)
            self = .response(HAPPDUResponse(control: control, transactionID: tid, status: status, bodyLength: length, body: body))
        }
    }

    /// The body length and the body (or its first fragment). HAP-BLE leaves both out of a PDU
    /// without a body; in a CoAP batch the length is always there, as it is the only delimiter.
    private static func readBody(_ cursor: inout ByteCursor, requiresWholeBody: Bool) throws(DecodeError) -> (Int?, [UInt8]) {
        if cursor.isAtEnd, !requiresWholeBody { return (nil, []) }
        let length = Int(try cursor.readUInt16LittleEndian("a HAP PDU body length"))
        if requiresWholeBody || cursor.remainingCount >= length {
            return (length, try cursor.readBytes(count: length, "the \(length)-byte body the PDU announces"))
        }
        return (length, Array(cursor.readRemaining()))
    }

    /// The PDU's bytes (one unfragmented PDU, or one fragment as parsed).
    public var encoded: [UInt8] {
        switch self {
        case .request(let request):
            var bytes: [UInt8] = [request.control.rawValue, request.opcode.rawValue, request.transactionID]
            let iidBytes = request.control.uses64BitInstanceIDs ? 8 : 2
            bytes += (0 ..< iidBytes).map { UInt8(truncatingIfNeeded: request.instanceID >> (8 * UInt64($0))) }
            return bytes + Self.encodedBody(request.bodyLength, request.body)
        case .response(let response):
            return [response.control.rawValue, response.transactionID, response.status.rawValue]
                + Self.encodedBody(response.bodyLength, response.body)
        case .continuation(let continuation):
            return [continuation.control.rawValue, continuation.transactionID] + continuation.body
        }
    }

    private static func encodedBody(_ length: Int?, _ body: [UInt8]) -> [UInt8] {
        guard let length else { return [] }
        return [UInt8(truncatingIfNeeded: length), UInt8(truncatingIfNeeded: length >> 8)] + body
    }
}

/// A HAP PDU request, or the first fragment of one.
public struct HAPPDURequest: Hashable, Sendable {
    public var control: HAPPDUControlField
    public var opcode: HAPOpcode
    public var transactionID: UInt8
    /// The characteristic or service instance ID (a service's for service operations); 0 for
    /// the CoAP database read.
    public var instanceID: UInt64
    /// The announced length of the whole body; nil when the PDU has no body field.
    public var bodyLength: Int?
    /// The body, or the part of it this fragment carries.
    public var body: [UInt8]

    public init(
        control: HAPPDUControlField = HAPPDUControlField(type: .request), opcode: HAPOpcode, transactionID: UInt8,
        instanceID: UInt64, bodyLength: Int? = nil, body: [UInt8] = []
    ) {
        self.control = control
        self.opcode = opcode
        self.transactionID = transactionID
        self.instanceID = instanceID
        self.bodyLength = bodyLength ?? (body.isEmpty ? nil : body.count)
        self.body = body
    }

    /// Whether the whole body is here.
    public var isComplete: Bool { body.count == (bodyLength ?? 0) }
}

/// A HAP PDU response, or the first fragment of one.
public struct HAPPDUResponse: Hashable, Sendable {
    public var control: HAPPDUControlField
    public var transactionID: UInt8
    public var status: HAPPDUStatus
    public var bodyLength: Int?
    public var body: [UInt8]

    public init(
        control: HAPPDUControlField = HAPPDUControlField(type: .response), transactionID: UInt8, status: HAPPDUStatus,
        bodyLength: Int? = nil, body: [UInt8] = []
    ) {
        self.control = control
        self.transactionID = transactionID
        self.status = status
        self.bodyLength = bodyLength ?? (body.isEmpty ? nil : body.count)
        self.body = body
    }

    public var isComplete: Bool { body.count == (bodyLength ?? 0) }
}

/// A continuation fragment: more body bytes of the PDU with the same TID and type.
public struct HAPPDUContinuation: Hashable, Sendable {
    public var control: HAPPDUControlField
    public var transactionID: UInt8
    public var body: [UInt8]

    public init(control: HAPPDUControlField, transactionID: UInt8, body: [UInt8]) {
        self.control = control
        self.transactionID = transactionID
        self.body = body
    }
}
