import HAPCatalog
import HAPCore
import HAPEvents
import HAPJSON
import HTTP1
import Packets
import Testing
import TestSupport
import WireParsing
@testable import IPTransport

@Suite("What a connection says about the accessory's attributes")
struct AttributeTrackerTests {
    let context: AnalysisContext
    let recorder: EventRecorder
    let tracker: AttributeTracker
    static let deviceID = "1A:2B:3C:4D:5E:6F"

    /// A lightbulb: On (bool, 1.10), Brightness (int %, 1.11), Current Temperature (float °C, 1.12).
    static func database(name: String = "Lamp") -> String {
        #"""
        {"accessories":[{"aid":1,"services":[{"iid":1,"type":"3E","characteristics":[\#
        {"iid":2,"type":"23","perms":["pr"],"format":"string","value":"\#(name)"}]},\#
        {"iid":9,"type":"43","characteristics":[\#
        {"iid":10,"type":"25","perms":["pr","pw","ev"],"format":"bool","value":false},\#
        {"iid":11,"type":"8","perms":["pr","pw","ev"],"format":"int","unit":"percentage","minValue":0,"maxValue":100,"value":50},\#
        {"iid":12,"type":"11","perms":["pr","ev"],"format":"float","unit":"celsius","value":20.5}]}]}]}
        """#
    }

    init() throws {
        (context, recorder) = try AnalysisContext.recording()
        tracker = AttributeTracker(context: context, connection: .example())
    }

    private func response(_ json: String, status: String = "200 OK") throws -> HTTPMessage {
        try parsedMessage(HTTPText.jsonResponse(status: status, json))
    }

    private func write(_ json: String, packet: Int = 1, timed: Bool = false) throws -> PendingRequest {
        let message = try parsedMessage(HTTPText.request("PUT", "/characteristics", body: Array(json.utf8), contentType: "application/hap+json"))
        let request = PendingRequest(method: "PUT", target: "/characteristics", endpoint: .characteristics, packet: .numbered(packet))
        request.writes = tracker.decodeBody(message, packet: .numbered(packet), as: CharacteristicWriteRequest.self, kind: .writeRequest)
        request.timedWrite = timed
        return request
    }

    /// The `GET /characteristics` the reads answer.
    private static var read: PendingRequest { PendingRequest(method: "GET", target: "/characteristics?id=1.10", endpoint: .characteristics, packet: .numbered(1)) }

    private func knowTheDatabase(deviceID: String? = Self.deviceID) throws {
        tracker.readAndReport(try response(Self.database()), deviceID: deviceID, packet: .numbered(1))
        recorder.removeAll()
    }

    // MARK: The accessory database

    @Test("the first /accessories is read and reported without a diff; it is kept for the accessory")
    func firstDatabase() throws {
        tracker.readAndReport(try response(Self.database()), deviceID: Self.deviceID, packet: .numbered(4))
        let event = try #require(recorder.databases.first)
        #expect(event.database?.accessories.first?.name == "Lamp")
        #expect(event.diff == nil)
        #expect(event.error == nil)
        #expect(event.deviceID == Self.deviceID)
        #expect(event.bodyByteCount == Self.database().utf8.count)
        #expect(recorder.events.first?.packet?.number == 4)
        #expect(context.databases[Self.deviceID]?.database.accessories.count == 1)
    }

    @Test("the same body again is the database already known: reported unchanged without being read again")
    func unchangedBody() throws {
        try knowTheDatabase()
        tracker.readAndReport(try response(Self.database()), deviceID: Self.deviceID, packet: .numbered(2))
        let event = try #require(recorder.databases.first)
        #expect(event.diff == .unchanged)
        #expect(event.database?.accessories.first?.name == "Lamp")
    }

    @Test("a changed body is read and compared with the previous database of the same accessory")
    func changedBody() throws {
        try knowTheDatabase()
        tracker.readAndReport(try response(Self.database(name: "Desk Lamp")), deviceID: Self.deviceID, packet: .numbered(2))
        let event = try #require(recorder.databases.first)
        #expect(event.diff != nil)
        #expect(event.diff != .unchanged)
        #expect(context.databases[Self.deviceID]?.database.accessories.first?.name == "Desk Lamp")
    }

    @Test("without a device id the database is kept under the accessory's address")
    func keyedByAddress() throws {
        tracker.readAndReport(try response(Self.database()), deviceID: nil, packet: .numbered(1))
        #expect(context.databases[ConnectionInfo.example().accessory.description] != nil)
        #expect(context.databases[Self.deviceID] == nil)
    }

    @Test("a body that is no database is reported with the error, and the known database is kept")
    func invalidDatabase() throws {
        try knowTheDatabase()
        tracker.readAndReport(try response(#"{"accessories": [ nope"#), deviceID: Self.deviceID, packet: .numbered(2))
        let event = try #require(recorder.databases.first)
        #expect(event.database == nil)
        #expect(event.error != nil)
        #expect(event.diff == nil)
        #expect(context.databases[Self.deviceID]?.database.accessories.first?.name == "Lamp")
    }

    @Test("a JSON limit reached in /accessories is counted and named in the problem")
    func databaseLimit() throws {
        let (context, recorder) = try AnalysisContext.recording { $0.limits.json.maximumDepth = 2 }
        AttributeTracker(context: context, connection: .example()).readAndReport(try response(Self.database()), deviceID: nil, packet: .numbered(1))
        let limit = try #require(recorder.problems(.limitReached).first)
        #expect(limit.problem.limit == .jsonDepth)
        #expect(limit.problem.message.contains("/accessories"))
        #expect(context.summary.limitsReached[.jsonDepth] == 1)
        #expect(recorder.databases.first?.error?.limit == .jsonDepth)
    }

    // MARK: Reads and events

    @Test("a read reports each entry, typed by the known database")
    func reads() throws {
        try knowTheDatabase()
        let body = #"{"characteristics":[{"aid":1,"iid":10,"value":1},{"aid":1,"iid":11,"value":75},{"aid":1,"iid":12,"value":21.5}]}"#
        tracker.readResponse(try response(body), for: Self.read, database: tracker.lookUp(deviceID: Self.deviceID), packet: .numbered(2))
        let reads = recorder.characteristics
        #expect(reads.map(\.kind) == [.read, .read, .read])
        #expect(reads.map(\.id) == [CharacteristicID(aid: 1, iid: 10), CharacteristicID(aid: 1, iid: 11), CharacteristicID(aid: 1, iid: 12)])
        #expect(reads.map(\.value?.value) == [.bool(true), .integer(75), .float(21.5)])
        #expect(reads.map(\.format) == [.bool, .int, .float])
        #expect(reads[1].unit == .percentage)
        #expect(reads[2].name == "Current Temperature")
        #expect(reads.allSatisfy { $0.status == nil && $0.answered && $0.deviceID == Self.deviceID })
    }

    @Test("without a database, values are reported as JSON gives them, untyped")
    func readsWithoutDatabase() throws {
        tracker.readResponse(try response(#"{"characteristics":[{"aid":3,"iid":4,"value":"on"}]}"#), for: Self.read, database: tracker.lookUp(deviceID: nil), packet: .numbered(2))
        let read = try #require(recorder.characteristics.first)
        #expect(read.type == nil && read.name == nil && read.format == nil)
        #expect(read.value != nil)
    }

    @Test("a 207 read reports the status of each entry; success is no status")
    func multiStatusRead() throws {
        let body = #"{"characteristics":[{"aid":1,"iid":10,"value":true,"status":0},{"aid":1,"iid":11,"status":-70402}]}"#
        tracker.readResponse(try response(body, status: "207 Multi-Status"), for: Self.read, database: tracker.lookUp(deviceID: nil), packet: .numbered(2))
        #expect(recorder.characteristics.map(\.status) == [nil, .unableToCommunicate])
    }

    @Test("an EVENT reports each entry as an event")
    func events() throws {
        try knowTheDatabase()
        let message = try parsedMessage(HTTPText.event(Array(#"{"characteristics":[{"aid":1,"iid":12,"value":19.0}]}"#.utf8)))
        tracker.event(message, parsed: tracker.parseBody(message, as: CharacteristicEvent.self), database: tracker.lookUp(deviceID: Self.deviceID), packet: .numbered(3))
        #expect(recorder.characteristics.map(\.kind) == [.event])
        #expect(recorder.characteristics.first?.value?.value == .float(19.0))
        #expect(recorder.events.first?.packet?.number == 3)
    }

    @Test("a body that is not HAP JSON is a problem naming the message and its direction")
    func undecodableBody() throws {
        tracker.readResponse(try response("{ not json"), for: Self.read, database: tracker.lookUp(deviceID: nil), packet: .numbered(5))
        let problem = try #require(recorder.problems(.undecodableBody).first)
        #expect(problem.problem.message.contains("HTTP/1.1 200 OK"))
        #expect(problem.problem.direction == .accessoryToController)
        #expect(problem.packet?.number == 5)
        #expect(recorder.characteristics.isEmpty)
    }

    @Test("an empty body is nothing to decode, and no problem")
    func emptyBody() throws {
        tracker.readResponse(try parsedMessage(HTTPText.response(status: "200 OK")), for: Self.read, database: tracker.lookUp(deviceID: nil), packet: .numbered(1))
        #expect(recorder.events.isEmpty)
    }

    @Test("a JSON limit reached in a body is counted, named, and the body reported undecodable")
    func bodyLimit() throws {
        let (context, recorder) = try AnalysisContext.recording { $0.limits.json.maximumValueCount = 3 }
        let tracker = AttributeTracker(context: context, connection: .example())
        let body = #"{"characteristics":[{"aid":1,"iid":10,"value":1},{"aid":1,"iid":11,"value":75}]}"#
        tracker.readResponse(try response(body), for: Self.read, database: tracker.lookUp(deviceID: nil), packet: .numbered(1))
        #expect(recorder.problems(.limitReached).map(\.problem.limit) == [.jsonValues])
        #expect(recorder.problems(.undecodableBody).count == 1)
    }

    // MARK: Writes

    @Test("204 answers every write as done, with the request's packet and whether it was timed")
    func writesDone() throws {
        try knowTheDatabase()
        let request = try write(#"{"characteristics":[{"aid":1,"iid":10,"value":true},{"aid":1,"iid":11,"value":30}]}"#, packet: 6, timed: true)
        tracker.writeResults(try parsedMessage(HTTPText.response(status: "204 No Content")), for: request, database: tracker.lookUp(deviceID: Self.deviceID), packet: .numbered(7))
        let writes = recorder.characteristics
        #expect(writes.map(\.kind) == [.write, .write])
        #expect(writes.map(\.value?.value) == [.bool(true), .integer(30)])
        #expect(writes.allSatisfy { $0.status == nil && $0.timedWrite && $0.requestPacket?.number == 6 && $0.answered })
        #expect(recorder.events.map(\.packet?.number) == [7, 7], "reported with the response")
    }

    @Test("ev entries are subscriptions and unsubscriptions; an entry with a value and ev is both")
    func subscriptions() throws {
        let request = try write(#"{"characteristics":[{"aid":1,"iid":10,"ev":true},{"aid":1,"iid":11,"ev":false},{"aid":1,"iid":12,"value":1,"ev":true}]}"#)
        tracker.writeResults(try parsedMessage(HTTPText.response(status: "204 No Content")), for: request, database: tracker.lookUp(deviceID: nil), packet: .numbered(2))
        #expect(recorder.characteristics.map(\.kind) == [.subscribe, .unsubscribe, .write, .subscribe])
        #expect(recorder.characteristics.map(\.id.iid) == [10, 11, 12, 12])
    }

    @Test("207 gives each write its own status")
    func multiStatusWrite() throws {
        let request = try write(#"{"characteristics":[{"aid":1,"iid":10,"value":true},{"aid":1,"iid":11,"value":30}]}"#)
        let answer = #"{"characteristics":[{"aid":1,"iid":10,"status":0},{"aid":1,"iid":11,"status":-70404}]}"#
        tracker.writeResults(try response(answer, status: "207 Multi-Status"), for: request, database: tracker.lookUp(deviceID: nil), packet: .numbered(2))
        #expect(recorder.characteristics.map(\.status) == [nil, .readOnlyCharacteristic])
    }

    @Test("any other answer fails the whole write: every entry could not be communicated",
          arguments: ["400 Bad Request", "470 Connection Authorization Required", "500 Internal Server Error"])
    func failedWrite(status: String) throws {
        let request = try write(#"{"characteristics":[{"aid":1,"iid":10,"value":true},{"aid":1,"iid":11,"ev":true}]}"#)
        tracker.writeResults(try parsedMessage(HTTPText.response(status: status)), for: request, database: tracker.lookUp(deviceID: nil), packet: .numbered(2))
        #expect(recorder.characteristics.map(\.status) == [.unableToCommunicate, .unableToCommunicate])
    }

    @Test("a request that carried no writes gives nothing")
    func noWrites() throws {
        let request = PendingRequest(method: "PUT", target: "/characteristics", endpoint: .characteristics, packet: .numbered(1))
        tracker.writeResults(try parsedMessage(HTTPText.response(status: "204 No Content")), for: request, database: tracker.lookUp(deviceID: nil), packet: .numbered(2))
        #expect(recorder.events.isEmpty)
    }

    @Test("writes never answered are reported unanswered when the connection ends; subscriptions are not")
    func unansweredWrites() throws {
        let request = try write(#"{"characteristics":[{"aid":1,"iid":10,"value":true},{"aid":1,"iid":11,"ev":true}]}"#, packet: 3)
        tracker.unansweredWrites(request, deviceID: nil, packet: .numbered(9))
        let write = try #require(recorder.characteristics.only)
        #expect(write.kind == .write)
        #expect(!write.answered)
        #expect(write.status == nil)
        #expect(write.requestPacket?.number == 3)
        #expect(recorder.events.first?.packet?.number == 9)
    }
}

extension AttributeTracker {
    /// A `GET /accessories` response read and reported, as HAPConnection does around reporting
    /// the message.
    func readAndReport(_ message: HTTPMessage, deviceID: String?, packet: PacketInfo) {
        accessoryDatabase(message, read: readDatabase(message, deviceID: deviceID), deviceID: deviceID, packet: packet)
    }
}
