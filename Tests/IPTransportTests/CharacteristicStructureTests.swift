import HAPCore
import HAPEvents
import HAPJSON
import HTTP1
import Testing
import TestSupport
import TLV8
import WireParsing
@testable import IPTransport

/// TLV8 characteristic values of known structure, as a connection reports them: typed in the
/// activity, key material out of the stream unless asked for, and a broken value reported at
/// its byte offset while the analysis goes on.
@Suite("TLV8 characteristic values on a connection")
struct CharacteristicStructureTests {
    static let deviceID = "1A:2B:3C:4D:5E:6F"

    /// A camera's stream management: Streaming Status (2.16, 120) and Setup Endpoints (2.17, 118).
    static let database = #"""
        {"accessories":[{"aid":2,"services":[{"iid":11,"type":"110","characteristics":[\#
        {"iid":16,"type":"120","perms":["pr","ev"],"format":"tlv8","value":"AQEA"},\#
        {"iid":17,"type":"118","perms":["pr","pw"],"format":"tlv8","value":""}]}]}]}
        """#

    /// Setup Endpoints with a session, an address and one SRTP parameter set whose key is 16 x 0xAB
    /// and salt 2 x 0xCD; the address item starts at byte 18, its IP version item at 20.
    static func setupEndpoints(ipVersion: [UInt8] = [0x00]) -> [UInt8] {
        let address = [0x01, UInt8(ipVersion.count)] + ipVersion + [0x02, 0x03] + Array("a.b".utf8) + [0x03, 0x02, 0x38, 0xC7]
        let srtp: [UInt8] = [0x01, 0x01, 0x00, 0x02, 0x10] + [UInt8](repeating: 0xAB, count: 16) + [0x03, 0x02, 0xCD, 0xCD]
        return [0x01, 0x10] + [UInt8](repeating: 0x11, count: 16) + [0x03, UInt8(address.count)] + address + [0x04, UInt8(srtp.count)] + srtp
    }

    private func tracker(revealingKeys: Bool = false) throws -> (AttributeTracker, EventRecorder) {
        let (context, recorder) = try AnalysisContext.recording { $0.revealsSessionKeys = revealingKeys }
        let tracker = AttributeTracker(context: context, connection: .example())
        tracker.readAndReport(try parsedMessage(HTTPText.jsonResponse(status: "200 OK", Self.database)), deviceID: Self.deviceID, packet: .numbered(1))
        recorder.removeAll()
        return (tracker, recorder)
    }

    private func write(_ value: [UInt8], on tracker: AttributeTracker) throws {
        let json = #"{"characteristics":[{"aid":2,"iid":17,"value":"\#(Base64.encode(value))"}]}"#
        let message = try parsedMessage(HTTPText.request("PUT", "/characteristics", body: Array(json.utf8), contentType: "application/hap+json"))
        let request = PendingRequest(method: "PUT", target: "/characteristics", endpoint: .characteristics, packet: .numbered(2))
        request.writes = tracker.decodeBody(message, packet: .numbered(2), as: CharacteristicWriteRequest.self, kind: .writeRequest)
        tracker.writeResults(try parsedMessage(HTTPText.response(status: "204 No Content")), for: request, database: tracker.lookUp(deviceID: Self.deviceID), packet: .numbered(3))
    }

    @Test func aSetupEndpointsWriteIsTypedAndItsKeyIsZeroedInTheValue() throws {
        let (tracker, recorder) = try tracker()
        try write(Self.setupEndpoints(), on: tracker)
        let activity = try #require(recorder.characteristics.first)
        let structure = try #require(activity.structure)
        #expect(structure.schemaName == "Setup Endpoints")
        #expect(structure.field("address", "address")?.value == .text("a.b"))
        #expect(structure.field("address", "videoRTPPort")?.value == .unsigned(51000))
        #expect(structure.field("videoSRTPParameters", "masterKey")?.value == .secret(byteCount: 16, bytes: nil))
        guard case .bytes(let shown)? = activity.value?.value else {
            Issue.record("no bytes")
            return
        }
        #expect(shown.count == Self.setupEndpoints().count)
        #expect(!shown.contains(0xAB) && !shown.contains(0xCD), "no byte of the key or salt is left")
        #expect(recorder.problems.isEmpty)
    }

    @Test func withShowKeysTheKeyIsThere() throws {
        let (tracker, recorder) = try tracker(revealingKeys: true)
        try write(Self.setupEndpoints(), on: tracker)
        let activity = try #require(recorder.characteristics.first)
        #expect(activity.structure?.field("videoSRTPParameters", "masterKey")?.value
            == .secret(byteCount: 16, bytes: [UInt8](repeating: 0xAB, count: 16)))
        #expect(activity.value?.value == .bytes(Self.setupEndpoints()))
    }

    @Test func aBrokenValueIsAProblemAtItsOffsetNamingTheCharacteristicAndTheRestGoesOn() throws {
        let (tracker, recorder) = try tracker()
        // An IP version of two bytes, where the sources write one.
        try write(Self.setupEndpoints(ipVersion: [0x00, 0x00]), on: tracker)
        let structure = try #require(recorder.characteristics.first?.structure)
        #expect(structure.error?.code == .malformed)
        #expect(structure.error?.offset == 20, "the IP version item, counted from the value's first byte")
        #expect(structure.error?.expected.contains("ipVersion") == true)
        #expect(structure.field("sessionID")?.value == .uuid([UInt8](repeating: 0x11, count: 16)), "what came before is kept")
        let (problem, packet) = try #require(recorder.problems(.undecodableValue).first)
        #expect(packet?.number == 3)
        #expect(problem.message.contains("2.17") && problem.message.contains("Setup Endpoints") && problem.message.contains("byte 20"))
        #expect(problem.direction == .controllerToAccessory)
        // The next read of the connection is analysed as before.
        let read = PendingRequest(method: "GET", target: "/characteristics?id=2.16", endpoint: .characteristics, packet: .numbered(4))
        tracker.readResponse(
            try parsedMessage(HTTPText.jsonResponse(status: "200 OK", #"{"characteristics":[{"aid":2,"iid":16,"value":"AQEB"}]}"#)),
            for: read, database: tracker.lookUp(deviceID: Self.deviceID), packet: .numbered(5))
        #expect(recorder.characteristics.last?.structure?.field("status")?.value == .enumerated(1, name: "in use"))
    }

    // MARK: Bodies as reports print them

    private static func parsedDatabase() throws -> AccessoryDatabase {
        let bytes = Array(database.utf8)
        var cursor = ByteCursor(bytes.span.bytes, layer: .json)
        return try AccessoryDatabase(parsing: &cursor)
    }

    private static func writeMessage(_ valueText: String) throws -> HTTPMessage {
        let json = #"{"characteristics":[{"aid":2,"iid":17,"value":"\#(valueText)"}]}"#
        return try parsedMessage(HTTPText.request("PUT", "/characteristics", body: Array(json.utf8), contentType: "application/hap+json"))
    }

    @Test func aBodyCarryingAKeyIsPrintedWithTheKeyZeroedInItsBase64() throws {
        let value = Self.setupEndpoints()
        let message = try Self.writeMessage(Base64.encode(value))
        let shown = CharacteristicBodySecrets.withoutSecrets(message, databaseWithSecrets: try Self.parsedDatabase(), written: true, limits: JSONLimits())
        guard case .redacted(let body)? = shown else {
            Issue.record("not redacted: \(String(describing: shown))")
            return
        }
        #expect(body.count == message.body.count)
        let expected = Array(message.body).replacing(Array(Base64.encode(value).utf8), with: Array(Base64.encode(
            TLV8ValueDecoder.decode(value, as: TLV8ValueSchema.characteristic(shortType: 0x118, written: true)!).withoutSecrets(value)).utf8))
        #expect(body == expected)
    }

    @Test func aBodyWithoutKeysOrWithoutACameraIsPrintedAsSent() throws {
        let streaming = try parsedMessage(HTTPText.jsonResponse(status: "200 OK", #"{"characteristics":[{"aid":2,"iid":16,"value":"AQEA"}]}"#))
        #expect(CharacteristicBodySecrets.withoutSecrets(streaming, databaseWithSecrets: try Self.parsedDatabase(), written: false, limits: JSONLimits()) == nil)
        let withKey = try Self.writeMessage(Base64.encode(Self.setupEndpoints()))
        #expect(CharacteristicBodySecrets.withoutSecrets(withKey, databaseWithSecrets: nil, written: true, limits: JSONLimits()) == nil,
                "no database, no Setup Endpoints to know of")
    }

    @Test func onlyADatabaseWithACharacteristicWhoseValueCarriesKeysIsSaidToHoldSecretValues() throws {
        #expect(CharacteristicBodySecrets.holdsSecretValues(try Self.parsedDatabase()), "it has Setup Endpoints")
        let lightbulb = Array(#"{"accessories":[{"aid":1,"services":[{"iid":1,"type":"43","characteristics":[{"iid":2,"type":"25","perms":["pr"],"format":"bool","value":true}]}]}]}"#.utf8)
        var cursor = ByteCursor(lightbulb.span.bytes, layer: .json)
        #expect(!CharacteristicBodySecrets.holdsSecretValues(try AccessoryDatabase(parsing: &cursor)))
    }

    @Test func aKeyThatCannotBeLocatedInTheTextWithholdsTheBody() throws {
        // JSON may escape the solidus; the escaped text is not the base64 that was decoded.
        let value = Self.setupEndpoints() + [0x09, 0x02, 0xFF, 0xFF]
        let text = Base64.encode(value)
        #expect(text.contains("/"))
        let message = try Self.writeMessage(text.replacing("/", with: #"\/"#))
        #expect(CharacteristicBodySecrets.withoutSecrets(message, databaseWithSecrets: try Self.parsedDatabase(), written: true, limits: JSONLimits()) == .withheld)
    }

    @Test func anAccessoriesBodyHoldingAnEchoedKeyIsRedactedToo() throws {
        let value = Base64.encode(Self.setupEndpoints())
        let body = Self.database.replacing(#""format":"tlv8","value":""}"#, with: #""format":"tlv8","value":"\#(value)"}"#)
        let message = try parsedMessage(HTTPText.jsonResponse(status: "200 OK", body))
        guard case .redacted(let shown)? = CharacteristicBodySecrets.withoutSecrets(accessories: message, known: nil, limits: JSONLimits()) else {
            Issue.record("not redacted")
            return
        }
        #expect(!String(decoding: shown, as: UTF8.self).contains(value))
        #expect(CharacteristicBodySecrets.withoutSecrets(accessories: message, known: try Self.parsedDatabase(), limits: JSONLimits()) != nil,
                "a database with Setup Endpoints is read again")
    }
}
