import HAPJSON
import Testing
@testable import Audit

@Suite("Findings as JSON")
struct FindingJSONTests {
    private func document(_ findings: [Finding]) throws -> JSONValue {
        var writer = JSONWriter()
        findings.writeJSON(to: &writer)
        return try JSONDocument(bytes: writer.bytes).root
    }

    @Test("Each finding is an object with the stable fields, in order")
    func fields() throws {
        let findings = try RecordedCapture("unverified-access").auditAsTheUserWould()
        let array = try #require(try document(findings).arrayValue)
        #expect(array.count == findings.count)
        let first = try #require(array.first)
        #expect(first.objectValue?.map(\.key) == [
            "rule", "severity", "title", "explanation", "reference", "connection", "accessory", "evidence", "omittedEvidence",
        ])
        #expect(first["rule"]?.stringValue == "pairing/unverified-request")
        #expect(first["severity"]?.stringValue == "high")
        #expect(first["title"]?.stringValue == AuditRule.unverifiedRequest.title)
        #expect(first["connection"]?["id"]?.numberValue?.int64Value == 2)
        #expect(first["connection"]?["controller"]?.stringValue == "10.77.0.1:49202")
        #expect(first["connection"]?["accessory"]?.stringValue == "10.77.0.2:51826")
        #expect(first["omittedEvidence"]?.numberValue?.int64Value == 0)
    }

    @Test("Evidence carries packet, time, connection, detail and occurrences")
    func evidence() throws {
        let findings = try RecordedCapture("unverified-access").auditAsTheUserWould()
        let evidence = try #require(try document(findings).arrayValue?.first?["evidence"]?.arrayValue?.first)
        #expect(evidence.objectValue?.map(\.key) == ["packet", "time", "connection", "detail", "occurrences"])
        #expect(evidence["packet"]?.numberValue?.int64Value == 34)
        let time = try #require(evidence["time"]?.numberValue?.doubleValue)
        #expect(abs(time - 1796012651.251953) < 1e-6)
        #expect(evidence["detail"]?.stringValue?.contains("GET /accessories") == true)
        #expect(evidence["occurrences"]?.numberValue?.int64Value == 1)
    }

    @Test("A recurring observation adds where it was last seen; a capture-wide one has null packet and connection")
    func recurringAndCaptureWide() throws {
        let findings = try RecordedCapture("paired-setup").auditAsTheUserWould()
        let statusFlags = try #require(try document(findings).arrayValue?.first { $0["rule"]?.stringValue == "discovery/sf-unpaired-while-paired" })
        #expect(statusFlags["connection"]?.isNull == true)
        #expect(statusFlags["accessory"]?.stringValue == "hapscope Bridge 4D5E6F._hap._tcp.local")
        let recurring = try #require(statusFlags["evidence"]?.arrayValue?.first)
        #expect(recurring["occurrences"]?.numberValue?.int64Value == 3)
        #expect(recurring["lastPacket"]?.numberValue?.int64Value == 72)
        #expect(recurring["lastTime"]?.numberValue != nil)

        let bridge = try RecordedCapture("bridge").audit(setupCode: "111-11-111")
        let code = try #require(try document(bridge).arrayValue?.first)
        #expect(code["rule"]?.stringValue == "pairing/forbidden-setup-code")
        #expect(code["connection"]?.isNull == true && code["accessory"]?.isNull == true)
    }

    @Test("No findings is an empty array")
    func empty() throws {
        #expect(try document([]).arrayValue?.isEmpty == true)
    }

    @Test("A rule is an object naming it, its category, severity and words")
    func rule() throws {
        var writer = JSONWriter()
        AuditRule.nonceReuse.writeJSON(to: &writer)
        let rule = try JSONDocument(bytes: writer.bytes).root
        #expect(rule.objectValue?.map(\.key) == [
            "rule", "category", "slug", "severity", "severityReason", "title", "explanation", "reference",
        ])
        #expect(rule["rule"]?.stringValue == "session/nonce-reuse")
        #expect(rule["category"]?.stringValue == "session")
        #expect(rule["severity"]?.stringValue == "high")
    }
}
