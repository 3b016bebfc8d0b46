import Testing
import WireParsing
@testable import Bluetooth

@Suite("ATT PDUs")
struct ATTPDUTests {
    func att(_ bytes: [UInt8]) -> Result<ATTPDU, DecodeError> {
        decode(bytes, layer: .att) { (cursor) throws(DecodeError) in try ATTPDU(parsing: &cursor) }
    }

    @Test("GATT discovery from Bumble: Read By Group Type request and responses, 16- and 128-bit")
    func discovery() throws {
        #expect(try att(l2capPayload(BumbleVectors.readByGroupTypeRequest)).get()
            == .readByGroupTypeRequest(startHandle: 1, endHandle: 0xFFFF, groupType: BluetoothUUID(shortForm: 0x2800)))
        #expect(try att(l2capPayload(BumbleVectors.readByGroupTypeResponse)).get() == .readByGroupTypeResponse([
            .init(handle: 1, endGroupHandle: 5, value: [0x00, 0x18]),
            .init(handle: 6, endGroupHandle: 13, value: [0x01, 0x18]),
        ]))
        guard case .readByGroupTypeResponse(let groups) = try att(l2capPayload(BumbleVectors.hapServiceResponse)).get() else {
            Issue.record("not a group response")
            return
        }
        let uuid = try BluetoothUUID(littleEndianBytes: groups[0].value)
        #expect(uuid.hapShortForm == 0x3E && uuid.description == "0000003E-0000-1000-8000-0026BB765291")
    }

    @Test("Error, Read By Type, Read, Write from Bumble")
    func bumbleExchange() throws {
        #expect(try att(l2capPayload(BumbleVectors.errorResponse)).get()
            == .errorResponse(requestOpcode: .readByGroupTypeRequest, handle: 0x11, error: .attributeNotFound))
        #expect(try att(l2capPayload(BumbleVectors.readByTypeResponse)).get() == .readByTypeResponse([
            .init(handle: 2, value: hex("02 0300 002a")), .init(handle: 4, value: hex("02 0500 012a")),
        ]))
        #expect(try att(l2capPayload(BumbleVectors.readRequest)).get() == .readRequest(handle: 0x10))
        #expect(try att(l2capPayload(BumbleVectors.readResponse)).get() == .readResponse(value: [1, 2, 3, 4]))
        #expect(try att(l2capPayload(BumbleVectors.writeRequest)).get() == .writeRequest(handle: 0x10, value: hex("0012341000")))
        #expect(try att(l2capPayload(BumbleVectors.writeResponse)).get() == .writeResponse)
    }

    @Test("Every other opcode of Core Vol 3 Part F §3.4 decodes into its fields", arguments: [
        ("02 1700", ATTPDU.exchangeMTURequest(clientReceiveMTU: 23)),
        ("03 0002", .exchangeMTUResponse(serverReceiveMTU: 512)),
        ("04 0100 ffff", .findInformationRequest(startHandle: 1, endHandle: 0xFFFF)),
        ("05 01 0100 0028 0200 0328", .findInformationResponse([
            .init(handle: 1, type: BluetoothUUID(shortForm: 0x2800)), .init(handle: 2, type: BluetoothUUID(shortForm: 0x2803)),
        ])),
        ("05 02 1000 915276bb2600008000100000a5000000", .findInformationResponse([
            .init(handle: 0x10, type: BluetoothUUID(value: 0x000000A5_0000_1000_8000_0026BB765291)),
        ])),
        ("06 0100 ffff 0028 0018", .findByTypeValueRequest(startHandle: 1, endHandle: 0xFFFF, type: BluetoothUUID(shortForm: 0x2800), value: [0x00, 0x18])),
        ("07 0100 0500", .findByTypeValueResponse([.init(foundHandle: 1, groupEndHandle: 5)])),
        ("08 0100 ffff 0328", .readByTypeRequest(startHandle: 1, endHandle: 0xFFFF, type: BluetoothUUID(shortForm: 0x2803))),
        ("0c 1000 1600", .readBlobRequest(handle: 0x10, offset: 22)),
        ("0d 0a0b", .readBlobResponse(partValue: [0x0A, 0x0B])),
        ("0e 1000 1200", .readMultipleRequest(handles: [0x10, 0x12])),
        ("0f 010203", .readMultipleResponse(values: [1, 2, 3])),
        ("52 1000 01", .writeCommand(handle: 0x10, value: [1])),
        ("d2 1000 01 000102030405060708090a0b", .signedWriteCommand(handle: 0x10, value: [1], signature: Array(0 ... 11))),
        ("16 1000 0000 aabb", .prepareWriteRequest(handle: 0x10, offset: 0, partValue: [0xAA, 0xBB])),
        ("17 1000 0200 aabb", .prepareWriteResponse(handle: 0x10, offset: 2, partValue: [0xAA, 0xBB])),
        ("18 01", .executeWriteRequest(flags: 1)),
        ("19", .executeWriteResponse),
        ("1b 1000 ff", .handleValueNotification(handle: 0x10, value: [0xFF])),
        ("1d 1000", .handleValueIndication(handle: 0x10, value: [])),
        ("1e", .handleValueConfirmation),
        ("20 1000 1200", .readMultipleVariableRequest(handles: [0x10, 0x12])),
        ("21 0200 0102 0300 0a0b", .readMultipleVariableResponse(values: [[1, 2], [0x0A, 0x0B]], lastValueIsCut: true)),
        ("23 1000 0100 aa 1200 0000", .multipleHandleValueNotification([.init(handle: 0x10, value: [0xAA]), .init(handle: 0x12, value: [])])),
        ("3f 0102", .unknown(opcode: ATTOpcode(rawValue: 0x3F), parameters: [1, 2])),
    ])
    func opcodes(_ bytes: String, _ expected: ATTPDU) throws {
        let decoded = try att(hex(bytes)).get()
        #expect(decoded == expected)
        #expect(decoded.opcode.rawValue == hex(bytes)[0])
    }

    @Test("Malformed PDUs name what broke", arguments: [
        "05 03 0100 0028", // unknown Find Information format
        "05 01 0100 00", // an entry cut short
        "09 01 0100", // an entry length below 2
        "11 03 0100 0200 00", // an entry length below 4
        "0e 1000", // Read Multiple of one handle
        "08 0100 ffff 00", // a one-byte UUID
        "1e 00", // bytes after a parameterless PDU
    ])
    func malformed(_ bytes: String) {
        #expect(att(hex(bytes)).error?.code == .malformed)
    }

    @Test("PDUs shorter than their opcode's fixed fields are truncated")
    func truncated() {
        for bytes in ["", "01 10 11", "02 17", "0a 10", "d2 1000 01020304", "12"] {
            #expect(att(hex(bytes)).error == DecodeError(.truncated, layer: .att, offset: 0, expected: ""), "\(bytes)")
        }
    }

    @Test("Opcode bits and names; error codes by name")
    func names() {
        #expect(ATTOpcode.writeCommand.isCommand && ATTOpcode.signedWriteCommand.hasAuthenticationSignature)
        #expect(ATTOpcode.readRequest.description == "Read Request (0x0a)")
        #expect(ATTErrorCode.insufficientEncryption.description == "Insufficient Encryption (0x0f)")
        #expect(ATTErrorCode(rawValue: 0x80).name == "Application Error")
        #expect(ATTErrorCode(rawValue: 0x70).description == "ATT error 0x70")
    }
}
