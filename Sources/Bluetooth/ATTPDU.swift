import WireParsing

/// One attribute protocol PDU (Core Vol 3 Part F §3.4), decoded from a whole L2CAP payload on
/// the ATT channel (CID 0x0004).
///
/// Handles are 16-bit and little-endian, like every ATT field. A PDU shorter than its opcode's
/// fixed fields throws `truncated`; a list whose entries do not divide the bytes that remain,
/// an entry length below its minimum or an unknown Find Information format throws `malformed`.
/// Values are copied: they are small (at most ATT_MTU − 1 bytes) and the HAP-BLE layer above
/// keeps them across packets.
public enum ATTPDU: Hashable, Sendable {
    case errorResponse(requestOpcode: ATTOpcode, handle: UInt16, error: ATTErrorCode)
    case exchangeMTURequest(clientReceiveMTU: UInt16)
    case exchangeMTUResponse(serverReceiveMTU: UInt16)
    case findInformationRequest(startHandle: UInt16, endHandle: UInt16)
    case findInformationResponse([HandleAndType])
    case findByTypeValueRequest(startHandle: UInt16, endHandle: UInt16, type: BluetoothUUID, value: [UInt8])
    case findByTypeValueResponse([HandleRange])
    case readByTypeRequest(startHandle: UInt16, endHandle: UInt16, type: BluetoothUUID)
    case readByTypeResponse([HandleAndValue])
    case readRequest(handle: UInt16)
    case readResponse(value: [UInt8])
    case readBlobRequest(handle: UInt16, offset: UInt16)
    case readBlobResponse(partValue: [UInt8])
    case readMultipleRequest(handles: [UInt16])
    /// The values concatenated, as sent: only the client knows where each ends.
    case readMultipleResponse(values: [UInt8])
    case readByGroupTypeRequest(startHandle: UInt16, endHandle: UInt16, groupType: BluetoothUUID)
    case readByGroupTypeResponse([GroupValue])
    case writeRequest(handle: UInt16, value: [UInt8])
    case writeResponse
    case writeCommand(handle: UInt16, value: [UInt8])
    case signedWriteCommand(handle: UInt16, value: [UInt8], signature: [UInt8])
    case prepareWriteRequest(handle: UInt16, offset: UInt16, partValue: [UInt8])
    case prepareWriteResponse(handle: UInt16, offset: UInt16, partValue: [UInt8])
    /// Flags 0x00 cancel all prepared writes, 0x01 write them all.
    case executeWriteRequest(flags: UInt8)
    case executeWriteResponse
    case handleValueNotification(handle: UInt16, value: [UInt8])
    case handleValueIndication(handle: UInt16, value: [UInt8])
    case handleValueConfirmation
    case readMultipleVariableRequest(handles: [UInt16])
    /// Each value with its length; `lastValueIsCut` when the response ended inside the last
    /// value, as the server must cut a set of values longer than ATT_MTU − 1 (§3.4.4.10).
    case readMultipleVariableResponse(values: [[UInt8]], lastValueIsCut: Bool)
    case multipleHandleValueNotification([HandleAndValue])
    /// An opcode this decoder does not know, with its parameters.
    case unknown(opcode: ATTOpcode, parameters: [UInt8])

    /// A handle and the type of the attribute it names (Find Information Response).
    public struct HandleAndType: Hashable, Sendable {
        public var handle: UInt16
        public var type: BluetoothUUID
        public init(handle: UInt16, type: BluetoothUUID) {
            self.handle = handle
            self.type = type
        }
    }

    /// A found attribute and the last handle of its group (Find By Type Value Response).
    public struct HandleRange: Hashable, Sendable {
        public var foundHandle: UInt16
        public var groupEndHandle: UInt16
        public init(foundHandle: UInt16, groupEndHandle: UInt16) {
            self.foundHandle = foundHandle
            self.groupEndHandle = groupEndHandle
        }
    }

    public struct HandleAndValue: Hashable, Sendable {
        public var handle: UInt16
        public var value: [UInt8]
        public init(handle: UInt16, value: [UInt8]) {
            self.handle = handle
            self.value = value
        }
    }

    /// A group (a service, for GATT) and its value (Read By Group Type Response).
    public struct GroupValue: Hashable, Sendable {
        public var handle: UInt16
        public var endGroupHandle: UInt16
        public var value: [UInt8]
        public init(handle: UInt16, endGroupHandle: UInt16, value: [UInt8]) {
            self.handle = handle
            self.endGroupHandle = endGroupHandle
            self.value = value
        }
    }

    /// The length of the authentication signature of a Signed Write Command.
    public static let signatureLength = 12

    public var opcode: ATTOpcode {
        switch self {
        case .errorResponse: .errorResponse
        case .exchangeMTURequest: .exchangeMTURequest
        case .exchangeMTUResponse: .exchangeMTUResponse
        case .findInformationRequest: .findInformationRequest
        case .findInformationResponse: .findInformationResponse
        case .findByTypeValueRequest: .findByTypeValueRequest
        case .findByTypeValueResponse: .findByTypeValueResponse
        case .readByTypeRequest: .readByTypeRequest
        case .readByTypeResponse: .readByTypeResponse
        case .readRequest: .readRequest
        case .readResponse: .readResponse
        case .readBlobRequest: .readBlobRequest
        case .readBlobResponse: .readBlobResponse
        case .readMultipleRequest: .readMultipleRequest
        case .readMultipleResponse: .readMultipleResponse
        case .readByGroupTypeRequest: .readByGroupTypeRequest
        case .readByGroupTypeResponse: .readByGroupTypeResponse
        case .writeRequest: .writeRequest
        case .writeResponse: .writeResponse
        case .writeCommand: .writeCommand
        case .signedWriteCommand: .signedWriteCommand
        case .prepareWriteRequest: .prepareWriteRequest
        case .prepareWriteResponse: .prepareWriteResponse
        case .executeWriteRequest: .executeWriteRequest
        case .executeWriteResponse: .executeWriteResponse
        case .handleValueNotification: .handleValueNotification
        case .handleValueIndication: .handleValueIndication
        case .handleValueConfirmation: .handleValueConfirmation
        case .readMultipleVariableRequest: .readMultipleVariableRequest
        case .readMultipleVariableResponse: .readMultipleVariableResponse
        case .multipleHandleValueNotification: .multipleHandleValueNotification
        case .unknown(let opcode, _): opcode
        }
    }

    /// Reads one PDU filling the rest of `cursor` (layer `att`).
    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        let opcode = ATTOpcode(rawValue: try cursor.readUInt8("an ATT opcode"))
        func handle(_ what: String = "an attribute handle") throws(DecodeError) -> UInt16 {
            try cursor.readUInt16LittleEndian(what)
        }
        func rest() -> [UInt8] { Array(cursor.readRemaining()) }

        switch opcode {
        case .errorResponse:
            self = .errorResponse(
                requestOpcode: ATTOpcode(rawValue: try cursor.readUInt8("the request opcode in error")),
                handle: try handle("the attribute handle in error"),
                error: ATTErrorCode(rawValue: try cursor.readUInt8("an ATT error code")))
        case .exchangeMTURequest:
            self = .exchangeMTURequest(clientReceiveMTU: try cursor.readUInt16LittleEndian("the client receive MTU"))
        case .exchangeMTUResponse:
            self = .exchangeMTUResponse(serverReceiveMTU: try cursor.readUInt16LittleEndian("the server receive MTU"))
        case .findInformationRequest:
            self = .findInformationRequest(startHandle: try handle("the starting handle"), endHandle: try handle("the ending handle"))
        case .findInformationResponse:
            let formatPosition = cursor.position
            let format = try cursor.readUInt8("the Find Information format")
            let uuidLength: Int
            switch format {
            case 1: uuidLength = 2
            case 2: uuidLength = 16
            default: throw cursor.malformed("a Find Information format of 1 (16-bit UUIDs) or 2 (128-bit), found \(format)", at: formatPosition)
            }
            var entries: [HandleAndType] = []
            try Self.forEachEntry(of: 2 + uuidLength, in: &cursor, what: "Find Information entries") { (entry) throws(DecodeError) in
                entries.append(HandleAndType(handle: try entry.readUInt16LittleEndian(), type: try BluetoothUUID(parsing: &entry, length: uuidLength)))
            }
            self = .findInformationResponse(entries)
        case .findByTypeValueRequest:
            self = .findByTypeValueRequest(
                startHandle: try handle("the starting handle"), endHandle: try handle("the ending handle"),
                type: try BluetoothUUID(parsing: &cursor, length: 2), value: rest())
        case .findByTypeValueResponse:
            var entries: [HandleRange] = []
            try Self.forEachEntry(of: 4, in: &cursor, what: "handle ranges") { (entry) throws(DecodeError) in
                entries.append(HandleRange(foundHandle: try entry.readUInt16LittleEndian(), groupEndHandle: try entry.readUInt16LittleEndian()))
            }
            self = .findByTypeValueResponse(entries)
        case .readByTypeRequest, .readByGroupTypeRequest:
            let start = try handle("the starting handle")
            let end = try handle("the ending handle")
            let type = try BluetoothUUID(parsing: &cursor, length: cursor.remainingCount)
            self = opcode == .readByTypeRequest
                ? .readByTypeRequest(startHandle: start, endHandle: end, type: type)
                : .readByGroupTypeRequest(startHandle: start, endHandle: end, groupType: type)
        case .readByTypeResponse:
            let length = try Self.entryLength(&cursor, minimum: 2, what: "Read By Type")
            var entries: [HandleAndValue] = []
            try Self.forEachEntry(of: length, in: &cursor, what: "attribute data") { (entry) throws(DecodeError) in
                entries.append(HandleAndValue(handle: try entry.readUInt16LittleEndian(), value: Array(entry.readRemaining())))
            }
            self = .readByTypeResponse(entries)
        case .readByGroupTypeResponse:
            let length = try Self.entryLength(&cursor, minimum: 4, what: "Read By Group Type")
            var entries: [GroupValue] = []
            try Self.forEachEntry(of: length, in: &cursor, what: "attribute data") { (entry) throws(DecodeError) in
                entries.append(GroupValue(
                    handle: try entry.readUInt16LittleEndian(), endGroupHandle: try entry.readUInt16LittleEndian(),
                    value: Array(entry.readRemaining())))
            }
            self = .readByGroupTypeResponse(entries)
        case .readRequest:
            self = .readRequest(handle: try handle())
        case .readResponse:
            self = .readResponse(value: rest())
        case .readBlobRequest:
            self = .readBlobRequest(handle: try handle(), offset: try cursor.readUInt16LittleEndian("the value offset"))
        case .readBlobResponse:
            self = .readBlobResponse(partValue: rest())
        case .readMultipleRequest, .readMultipleVariableRequest:
            var handles: [UInt16] = []
            try Self.forEachEntry(of: 2, in: &cursor, what: "handles") { (entry) throws(DecodeError) in
                handles.append(try entry.readUInt16LittleEndian())
            }
            guard handles.count >= 2 else {
                throw cursor.malformed("a set of at least two handles in \(opcode), found \(handles.count)")
            }
            self = opcode == .readMultipleRequest ? .readMultipleRequest(handles: handles) : .readMultipleVariableRequest(handles: handles)
        case .readMultipleResponse:
            self = .readMultipleResponse(values: rest())
        case .writeRequest:
            self = .writeRequest(handle: try handle(), value: rest())
        case .writeResponse:
            self = .writeResponse
        case .writeCommand:
            self = .writeCommand(handle: try handle(), value: rest())
        case .signedWriteCommand:
            let attributeHandle = try handle()
            guard cursor.remainingCount >= Self.signatureLength else {
                throw cursor.truncated("the 12-byte authentication signature of a Signed Write Command")
            }
            let value = try cursor.readBytes(count: cursor.remainingCount - Self.signatureLength)
            self = .signedWriteCommand(handle: attributeHandle, value: value, signature: rest())
        case .prepareWriteRequest, .prepareWriteResponse:
            let attributeHandle = try handle()
            let offset = try cursor.readUInt16LittleEndian("the value offset")
            self = opcode == .prepareWriteRequest
                ? .prepareWriteRequest(handle: attributeHandle, offset: offset, partValue: rest())
                : .prepareWriteResponse(handle: attributeHandle, offset: offset, partValue: rest())
        case .executeWriteRequest:
            self = .executeWriteRequest(flags: try cursor.readUInt8("the Execute Write flags"))
        case .executeWriteResponse:
            self = .executeWriteResponse
        case .handleValueNotification:
            self = .handleValueNotification(handle: try handle(), value: rest())
        case .handleValueIndication:
            self = .handleValueIndication(handle: try handle(), value: rest())
        case .handleValueConfirmation:
            self = .handleValueConfirmation
        case .readMultipleVariableResponse:
            var values: [[UInt8]] = []
            var cut = false
            while !cursor.isAtEnd {
                let length = Int(try cursor.readUInt16LittleEndian("a value length"))
                if length > cursor.remainingCount {
                    cut = true
                    values.append(rest())
                } else {
                    values.append(try cursor.readBytes(count: length))
                }
            }
            self = .readMultipleVariableResponse(values: values, lastValueIsCut: cut)
        case .multipleHandleValueNotification:
            var entries: [HandleAndValue] = []
            while !cursor.isAtEnd {
                let attributeHandle = try handle()
                let length = Int(try cursor.readUInt16LittleEndian("a value length"))
                entries.append(HandleAndValue(handle: attributeHandle, value: try cursor.readBytes(count: length, "a \(length)-byte value")))
            }
            self = .multipleHandleValueNotification(entries)
        default:
            self = .unknown(opcode: opcode, parameters: rest())
        }
        guard cursor.isAtEnd else {
            throw cursor.malformed("the end of the \(opcode) PDU, found \(cursor.remainingCount) more bytes")
        }
    }

    /// Reads the length byte of a response whose entries share one length.
    private static func entryLength(_ cursor: inout ByteCursor, minimum: Int, what: String) throws(DecodeError) -> Int {
        let position = cursor.position
        let length = Int(try cursor.readUInt8("the entry length of \(what) Response"))
        guard length >= minimum else {
            throw cursor.malformed("an entry length of at least \(minimum) in \(what) Response, found \(length)", at: position)
        }
        return length
    }

    /// Calls `body` with a cursor over each `size`-byte entry of the rest; there must be at
    /// least one, and they must fill the rest exactly.
    private static func forEachEntry(
        of size: Int, in cursor: inout ByteCursor, what: String, _ body: (inout ByteCursor) throws(DecodeError) -> Void
    ) throws(DecodeError) {
        guard cursor.remainingCount > 0, cursor.remainingCount % size == 0 else {
            throw cursor.malformed("one or more \(size)-byte \(what), found \(cursor.remainingCount) bytes")
        }
        while !cursor.isAtEnd {
            var entry = try cursor.readCursor(count: size)
            try body(&entry)
        }
    }
}
