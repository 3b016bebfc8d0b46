import HAPCore
import HAPEvents
import HAPJSON
import Reports
import Testing
import TestSupport

@Suite("Event JSON")
struct EventJSONTests {
    static func parse(_ line: String) throws -> JSONValue {
        try JSONDocument(bytes: Array(line.utf8)).root
    }

    static func encodedLines(_ capture: RecordedAnalysis) -> [String] {
        let clock = CaptureClock(origin: capture.origin)
        return capture.events.map { EventJSON.encode($0, clock: clock) }
    }

    @Test("every event of every bundled capture is one JSON object with its type first", arguments: RecordedCapture.all)
    func everyEventIsJSON(name: String) throws {
        let capture = try RecordedAnalysis(name)
        for (event, line) in zip(capture.events, Self.encodedLines(capture)) {
            let root = try Self.parse(line)
            #expect(root.objectValue?.first?.key == "type")
            #expect(root["type"]?.stringValue == EventJSON.typeName(event.kind))
            #expect(!line.contains("\n"), "an NDJSON line must not break")
        }
    }

    @Test("the encoding of a capture is the same byte for byte on every run")
    func deterministic() throws {
        let first = Self.encodedLines(try RecordedAnalysis("multi-connection"))
        let second = Self.encodedLines(try RecordedAnalysis("multi-connection"))
        #expect(first == second)
        #expect(first.count > 100)
    }

    @Test("an HTTP message carries where, who, which way, how it travelled, and its head and body")
    func httpMessageFields() throws {
        let capture = try RecordedAnalysis("bridge")
        let lines = try Self.encodedLines(capture).map(Self.parse)
        let request = try #require(lines.first { $0["type"]?.stringValue == "http-message" && $0["target"]?.stringValue == "/accessories" })
        #expect(request["packet"]?.numberValue?.int64Value == 39)
        #expect(request["time"]?.numberValue?.doubleValue == 1.769772)
        #expect(request["timestamp"]?.stringValue == "2026-11-30T04:03:05.295574Z")
        #expect(request["client"]?.stringValue == "10.77.0.1:49202")
        #expect(request["accessory"]?.stringValue == "10.77.0.2:51826")
        #expect(request["direction"]?.stringValue == "controller-to-accessory")
        #expect(request["encrypted"]?.boolValue == true)
        #expect(request["decrypted"]?.boolValue == true)
        #expect(request["startLine"]?.stringValue == "GET /accessories HTTP/1.1")
        #expect(request["headers"]?.arrayValue?.isEmpty == false)
        #expect(request["bodyEncoding"]?.stringValue == "utf-8")
        #expect(request["body"]?.stringValue == "")

        let response = try #require(lines.first { $0["type"]?.stringValue == "http-message" && $0["answers"]?["packet"]?.numberValue?.int64Value == 39 })
        #expect(response["direction"]?.stringValue == "accessory-to-controller")
        #expect(response["status"]?.numberValue?.int64Value == 200)
        #expect(response["bodyLength"]?.numberValue?.int64Value == 4588)
        let body = try #require(response["body"]?.stringValue)
        #expect(body.hasPrefix("{\"accessories\""))
    }

    @Test("a body that is not UTF-8 is base64, and says so")
    func binaryBody() throws {
        let lines = try Self.encodedLines(try RecordedAnalysis("bridge")).map(Self.parse)
        let m2 = try #require(lines.first { $0["type"]?.stringValue == "http-message" && $0["bodyLength"]?.numberValue?.int64Value == 409 })
        #expect(m2["bodyEncoding"]?.stringValue == "base64")
        #expect(m2["encrypted"]?.boolValue == false)
        let decoded = try #require(m2["body"]?.stringValue.flatMap(Base64.decode))
        #expect(decoded.count == 409)
        #expect(decoded.prefix(3) == [0x06, 0x01, 0x02], "State M2 comes first")
    }

    @Test("pairing items are named by their stable field names, with offsets, display values and hex")
    func pairingItems() throws {
        let lines = try Self.encodedLines(try RecordedAnalysis("wrong-code")).map(Self.parse)
        let refusal = try #require(lines.first { $0["type"]?.stringValue == "pairing-message" && $0["error"] != nil })
        #expect(refusal["state"]?.stringValue == "M4")
        #expect(refusal["error"]?.stringValue == "Authentication (2)")
        #expect(refusal["errorCode"]?.numberValue?.int64Value == 2)
        let items = try #require(refusal["items"]?.arrayValue)
        #expect(items.map { $0["field"]?.stringValue } == ["state", "error"])
        #expect(items[1]["offset"]?.numberValue?.int64Value == 3)
        #expect(items[1]["hex"]?.stringValue == "02")

        let exchange = try #require(lines.first { $0["type"]?.stringValue == "pairing-exchange" })
        #expect(exchange["outcome"]?.stringValue == "failed")
        #expect(exchange["failedAt"]?.stringValue == "M4")
        #expect(exchange["responseTimes"]?.arrayValue?.map { $0["state"]?.stringValue } == ["M2", "M4"])
    }

    @Test("session keys are in the JSON only when the analysis was asked to reveal them")
    func sessionKeys() throws {
        let keys = try RecordedCapture("bridge").sessionKeys()
        let hidden = Self.encodedLines(try RecordedAnalysis("bridge")).joined(separator: "\n")
        let revealed = Self.encodedLines(try RecordedAnalysis("bridge", configure: { $0.revealsSessionKeys = true })).joined(separator: "\n")
        #expect(keys.count == 2)
        for key in keys {
            #expect(!hidden.contains(key))
            #expect(revealed.contains(key))
        }
        let start = try #require(try revealed.split(separator: "\n").map { try Self.parse(String($0)) }
            .first { $0["type"]?.stringValue == "session-started" })
        #expect(start["keys"]?["controller-to-accessory"]?.stringValue == keys.first)
    }

    @Test("sets and counters are written in a fixed order")
    func fixedOrder() throws {
        let lines = try Self.encodedLines(try RecordedAnalysis("lossy-link")).map(Self.parse)
        let closed = try #require(lines.last { $0["type"]?.stringValue == "connection-closed" })
        #expect(closed["decrypted"]?.arrayValue?.map(\.stringValue) == ["controller-to-accessory", "accessory-to-controller"])
        #expect(closed["tcp"]?.objectValue?.map(\.key) == ["controller-to-accessory", "accessory-to-controller"])
        let retransmissions = closed["tcp"]?["accessory-to-controller"]?["retransmissions"]?.numberValue?.int64Value ?? 0
        #expect(retransmissions > 0, "the lossy link retransmits")
    }
}
