import CoAP
import HAPCatalog
import HAPCrypto
import HAPJSON
import HAPPDU
import Testing
import TestSupport
@testable import CoAPTransport
@testable import HAPCore

@Suite("The session cipher of HAP over CoAP")
struct CoAPSessionCipherTests {
    private let key = ChaCha20Poly1305.Key.random()

    private func sealed(_ plaintext: [UInt8], counter: UInt64) -> [UInt8] {
        ChaCha20Poly1305.seal(plaintext.span.bytes, key: key, nonce: ChaCha20Poly1305.Nonce(counter: counter))
    }

    @Test("counters are tried from the expected one, then later, then earlier, then 0, and no further than the bound")
    func searchOrder() {
        #expect(CoAPSessionCipher.searchOrder(expected: 5, maximumDrift: 2) == [5, 6, 7, 4, 3, 0])
        #expect(CoAPSessionCipher.searchOrder(expected: 1, maximumDrift: 2) == [1, 2, 3, 0])
        #expect(CoAPSessionCipher.searchOrder(expected: 0, maximumDrift: 0) == [0])
        #expect(CoAPSessionCipher.searchOrder(expected: .max, maximumDrift: 1) == [.max, .max - 1, 0])
    }

    @Test("each body steps its stream's counter, and the streams count apart")
    func countersPerStream() {
        var cipher = CoAPSessionCipher(keys: [.request: key, .response: key], maximumDrift: 4)
        for counter in UInt64(0) ..< 3 {
            guard case .opened(let plaintext, counter, counter) = cipher.open(sealed([UInt8(counter)], counter: counter), .request) else {
                Issue.record("request \(counter) did not open under its counter")
                return
            }
            #expect(plaintext == [UInt8(counter)])
        }
        #expect(cipher.expectedCounter(.request) == 3)
        #expect(cipher.expectedCounter(.response) == 0)
        guard case .noKey = cipher.open(sealed([1], counter: 0), .event) else {
            Issue.record("a stream without a key opened")
            return
        }
    }

    @Test("a skipped counter within the bound is found and the stream goes on from it")
    func drift() {
        var cipher = CoAPSessionCipher(keys: [.response: key], maximumDrift: 4)
        guard case .opened(_, 3, 0) = cipher.open(sealed([9], counter: 3), .response) else {
            Issue.record("a body sealed 3 ahead did not open")
            return
        }
        #expect(cipher.expectedCounter(.response) == 4)
        guard case .failed(4, let tried) = cipher.open(sealed([9], counter: 9), .response) else {
            Issue.record("a body 5 ahead opened with a bound of 4")
            return
        }
        #expect(tried == 9, "4, 5…8, 3…0")
        #expect(cipher.expectedCounter(.response) == 4, "a failure leaves the counter")
    }

    @Test("the event key derives from the shared secret as the key log's EVENT_READ_KEY says")
    func eventKey() throws {
        let capture = RecordedCapture("coap/clean")
        let lines = try capture.keyLogLines()
        let withoutEventKey = try KeyLog(parsing: lines.filter { !$0.hasPrefix("EVENT_READ_KEY") }.joined(separator: "\n"), source: "clean")
        let full = try capture.keyLog()
        let id = try #require(full.sessionIDs.first)
        let logged = try #require(CoAPSessionCipher.eventKey(keyLog: full, controllerKey: id, accessoryKey: nil))
        let derived = try #require(CoAPSessionCipher.eventKey(keyLog: withoutEventKey, controllerKey: id, accessoryKey: nil))
        #expect(logged == derived)
        #expect(CoAPSessionCipher.eventKey(keyLog: KeyLog(), controllerKey: id, accessoryKey: nil) == nil)
    }
}

@Suite("Recognising CoAP retransmissions")
struct RecentMessagesTests {
    @Test("the same type and message ID with the same bytes is a retransmission, with other bytes a differing copy")
    func verdicts() {
        var recent = RecentMessages()
        #expect(recent.check(type: .confirmable, messageID: 7, bytes: [1, 2]) == .new)
        #expect(recent.check(type: .confirmable, messageID: 7, bytes: [1, 2]) == .retransmission)
        #expect(recent.check(type: .confirmable, messageID: 7, bytes: [1, 3]) == .differingCopy)
        #expect(recent.check(type: .acknowledgement, messageID: 7, bytes: [1, 2]) == .new, "an ACK is not the CON it shares an ID with")
    }

    @Test("only the last messages are remembered")
    func bounded() {
        var recent = RecentMessages()
        for id in 0 ... UInt16(RecentMessages.capacity) { _ = recent.check(type: .confirmable, messageID: id, bytes: []) }
        #expect(recent.check(type: .confirmable, messageID: 0, bytes: []) == .new, "forgotten")
        #expect(recent.check(type: .confirmable, messageID: UInt16(RecentMessages.capacity), bytes: []) == .retransmission)
    }
}

@Suite("Characteristic values in HAP-BLE binary form")
struct GATTValueTests {
    @Test("integers are little-endian, floats IEEE single precision, strings UTF-8, data base64")
    func formats() {
        #expect(GATTValue.json([1], format: .bool) == .bool(true))
        #expect(GATTValue.json([0x34, 0x12], format: .uint16) == .number(JSONNumber(UInt64(0x1234))))
        #expect(GATTValue.json([0xFF, 0xFF, 0xFF, 0xFF], format: .int) == .number(JSONNumber(Int64(-1))))
        #expect(GATTValue.json([0x00, 0x00, 0xAC, 0x41], format: .float) == .number(JSONNumber(21.5)!))
        #expect(GATTValue.json(Array("hi".utf8), format: .string) == .string("hi"))
        #expect(GATTValue.json([1, 2, 3], format: .data) == .string("AQID"))
    }

    @Test("a value of the wrong length for its format is refused")
    func wrongLength() {
        #expect(GATTValue.json([1, 2], format: .uint8) == nil)
        #expect(GATTValue.json([1, 2, 3], format: .float) == nil)
    }
}

@Suite("The CoAP database in the shared model")
struct CoAPDatabaseModelTests {
    @Test("services and characteristics keep their types, IIDs, formats, units, permissions and ranges")
    func conversion() throws {
        var brightness = HAPCharacteristicSignature()
        brightness.type = HAPUUID(appleDefined: 0x08)
        brightness.instanceID = 12
        brightness.properties = [.readable, .writable, .supportsSecureReads, .supportsSecureWrites, .notifiesEventsInConnectedState]
        brightness.presentationFormat = GATTPresentationFormat(format: 0x10, unit: 0x27AD)
        brightness.validRange = [0, 0, 0, 0, 100, 0, 0, 0]
        brightness.stepValue = [1, 0, 0, 0]
        let service = HAPDatabase.Service(type: HAPUUID(appleDefined: 0x43), instanceID: 10, characteristics: [brightness], properties: .primary)
        let database = try CoAPDatabaseModel.accessoryDatabase(HAPDatabase(accessories: [.init(instanceID: 1, services: [service])]))
        let characteristic = try #require(database.characteristic(CharacteristicID(aid: 1, iid: 12)))
        #expect(characteristic.type == HAPUUID(appleDefined: 0x08))
        #expect(characteristic.format == .int)
        #expect(characteristic.unit == .percentage)
        #expect(characteristic.name == "Brightness")
        #expect(database.accessories.first?.services.first?.isPrimary == true)
        #expect(characteristic.interpret(.number(JSONNumber(Int64(150)))).issues.isEmpty == false, "above maxValue 100")
    }
}
