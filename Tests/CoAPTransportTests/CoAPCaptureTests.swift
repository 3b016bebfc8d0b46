import Foundation
import HAPCatalog
import HAPEvents
import HAPJSON
import Testing
import TestSupport

/// The recorded HAP-over-CoAP corpus (captures/coap/) against the peers' ground truth: every
/// PDU the truth says a peer sealed is decoded once, as the right characteristic activity.
@Suite("HAP over CoAP: the recorded captures")
struct CoAPCaptureTests {
    static let scenarios = ["clean", "lossy", "counter-drift", "late-response", "retransmission-differs", "plaintext-after-encryption", "large-database"]

    /// The truth's PDUs of one kind, with opcode and IID.
    private func truthPDUs(_ analysis: RecordedAnalysis) throws -> [JSONValue] {
        try analysis.capture.truth()["pdus"]?.arrayValue ?? []
    }

    private func activities(_ analysis: RecordedAnalysis, _ kind: CharacteristicActivity.Kind) -> [CharacteristicActivity] {
        analysis.events { if case .characteristic(let activity) = $0, activity.kind == kind { activity } else { nil } }
    }

    @Test("every read, write, subscription and event record the truth lists is decoded once, in order, with its IID",
          arguments: scenarios)
    func characteristicsMatchTheTruth(_ scenario: String) throws {
        let analysis = try RecordedAnalysis("coap/" + scenario)
        let pdus = try truthPDUs(analysis)
        let requests = pdus.filter { $0["kind"]?.stringValue == "request" }
        for (opcode, kind) in [(3, CharacteristicActivity.Kind.read), (2, .write), (11, .subscribe), (12, .unsubscribe)] {
            let expected = requests.filter { $0["opcode"]?.numberValue?.int64Value == Int64(opcode) }
                .compactMap { $0["iid"]?.numberValue?.uint64Value }
            // Activities leave when the response arrives; the truth lists requests as sealed, so
            // a late response (late-response) is put back in its request's place.
            let decoded = activities(analysis, kind).enumerated()
                .sorted { ($0.element.requestPacket?.number ?? 0, $0.offset) < ($1.element.requestPacket?.number ?? 0, $1.offset) }
            #expect(decoded.map(\.element.id.iid) == expected, "\(scenario): \(kind)")
        }
        // The deliberate copy in retransmission-differs is not an event the controller acted on.
        let events = pdus.enumerated().filter { $0.element["kind"]?.stringValue == "event" }
        let messages = try analysis.capture.truth()["coap"]?.arrayValue ?? []
        let copies = messages.indices.filter { messages[$0]["retransmission"]?.boolValue == true }
        let expectedEvents = events.filter { entry in
            !copies.contains(Int(entry.element["coap"]?.numberValue?.int64Value ?? -1))
        }.compactMap { $0.element["iid"]?.numberValue?.uint64Value }
        #expect(activities(analysis, .event).map(\.id.iid) == expectedEvents, "\(scenario): events")
    }

    @Test("the clean story: pair-setup and pair-verify ladders, an encrypted session, the database, typed values")
    func cleanStory() throws {
        let analysis = try RecordedAnalysis("coap/clean")
        let opened = analysis.events { if case .connectionOpened(let opened) = $0 { opened } else { nil } }
        #expect(opened.map(\.connection.controller.description) == ["[fd77::1]:49201", "[fd77::1]:49202", "[fd77::1]:49203"])
        #expect(opened.allSatisfy { $0.connection.transport == .coap && $0.deviceID == "1A:2B:3C:4D:5E:6F" })
        let closed = analysis.events { if case .connectionClosed(let summary) = $0 { summary } else { nil } }
        #expect(closed.count == 3)
        let exchanges = analysis.events { if case .pairingExchange(let exchange) = $0 { exchange } else { nil } }
        #expect(exchanges.map(\.procedure) == [.pairSetup, .pairVerify])
        #expect(exchanges.allSatisfy { $0.outcome == .succeeded })
        let starts = analysis.events { if case .sessionStarted(let start) = $0 { start } else { nil } }
        #expect(starts.count == 1)
        #expect(starts.first?.decryptable == Set(HAPDirection.allCases))
        let problems = analysis.events { if case .problem(let problem) = $0 { problem } else { nil } }
        let sessionProblems = analysis.events { if case .sessionProblem(let problem) = $0 { problem } else { nil } }
        #expect(problems.isEmpty, "\(problems)")
        #expect(sessionProblems.isEmpty, "\(sessionProblems.map(\.message))")
        let databases = analysis.events { if case .accessoryDatabase(let database) = $0 { database } else { nil } }
        #expect(databases.count == 2)
        #expect(databases.first?.bodyByteCount == 1258)
        // The database read carries no values (so no accessory name): its services and types.
        let services = databases.first?.database?.accessories.first?.services ?? []
        #expect(services.count == 8)
        #expect(services.first?.name == "Accessory Information")
        #expect(databases.last?.diff == .unchanged)
        let reads = activities(analysis, .read)
        #expect(reads.count == 46)
        #expect(reads.allSatisfy { $0.type != nil && ($0.value != nil) == ($0.status == nil) }, "a value unless a status says why not")
        let writes = activities(analysis, .write)
        #expect(writes.first?.name == "On" && writes.first?.value?.value == .bool(true))
    }

    @Test("the truth's event values are the decoded ones")
    func eventValues() throws {
        let analysis = try RecordedAnalysis("coap/clean")
        let truth = try truthPDUs(analysis).filter { $0["kind"]?.stringValue == "event" }
        let decoded = activities(analysis, .event)
        #expect(decoded.count == truth.count)
        for (event, expected) in zip(decoded, truth) {
            let body = try #require(expected["body"]?.stringValue.flatMap(Base64.decode))
            // TLV 01 <value>: the value the accessory sent, as its characteristic's format reads it.
            let value = Array(body.dropFirst(2))
            let format = try #require(event.format)
            let json = try #require(gattJSON(value, format))
            #expect(event.value?.value == InterpretedValue(decoding: json, as: format).value, "iid \(event.id.iid)")
        }
    }

    private func gattJSON(_ bytes: [UInt8], _ format: CharacteristicFormat) -> JSONValue? {
        // The truth's own reading, independent of the decoder: little-endian integers and floats.
        let integer = bytes.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        switch format {
        case .bool: return .bool(integer != 0)
        case .float: return Double(Float(bitPattern: UInt32(truncatingIfNeeded: integer)).description).flatMap(JSONNumber.init).map(JSONValue.number)
        case .uint8, .uint16, .uint32, .uint64: return .number(JSONNumber(integer))
        default: return nil
        }
    }

    @Test("lossy: the relay's duplicates and the CON retransmissions are recognised and decoded once")
    func lossy() throws {
        let analysis = try RecordedAnalysis("coap/lossy")
        let sessionProblems = analysis.events { if case .sessionProblem(let problem) = $0 { problem } else { nil } }
        #expect(sessionProblems.isEmpty, "\(sessionProblems.map(\.message))")
        let databases = analysis.events { if case .accessoryDatabase(let database) = $0 { database } else { nil } }
        #expect(databases.count == 2)
    }

    @Test("counter-drift: both skips are reported with the counter that opened the body, and decoding goes on")
    func counterDrift() throws {
        let analysis = try RecordedAnalysis("coap/counter-drift")
        let problems = analysis.events { if case .sessionProblem(let problem) = $0 { problem } else { nil } }
        #expect(problems.map(\.kind) == [.counterSkipped, .counterSkipped])
        #expect(problems.map(\.frameCounter) == [22, 31])
        // aiohomekit searches 5 counters either side: it reads the first and drops the session at the second.
        #expect(problems.map(\.counterDrift) == [
            SessionProblemEvent.CounterDrift(expected: 19, opened: 22, receiverRecovers: true),
            SessionProblemEvent.CounterDrift(expected: 24, opened: 31, receiverRecovers: false),
        ])
        #expect(problems.allSatisfy { $0.connection.controller.description == "[fd77::1]:49202" && $0.direction == .accessoryToController })
    }

    @Test("plaintext-after-encryption: the plaintext response is reported and read")
    func plaintext() throws {
        let analysis = try RecordedAnalysis("coap/plaintext-after-encryption")
        let problems = analysis.events { if case .sessionProblem(let problem) = $0 { problem } else { nil } }
        #expect(problems.map(\.kind) == [.plaintextAfterEncryption])
        #expect(problems.first?.connection.controller.description == "[fd77::1]:49202")
    }

    @Test("retransmission-differs: the copy with other bytes is reported and not decoded")
    func differingCopy() throws {
        let analysis = try RecordedAnalysis("coap/retransmission-differs")
        let problems = analysis.events { if case .sessionProblem(let problem) = $0 { problem } else { nil } }
        #expect(problems.map(\.kind) == [.retransmissionDiffers])
        #expect(problems.first?.connection.controller.description == "[fd77::1]:49202")
        #expect(problems.first?.direction == .accessoryToController)
        let captureProblems = analysis.events { if case .problem(let problem) = $0 { problem } else { nil } }
        #expect(captureProblems.isEmpty, "\(captureProblems.map(\.message))")
    }

    @Test("large-database: the Block2 database and the Block1 request are joined and read")
    func blockwise() throws {
        let analysis = try RecordedAnalysis("coap/large-database")
        let databases = analysis.events { if case .accessoryDatabase(let database) = $0 { database } else { nil } }
        #expect(databases.count == 2)
        #expect(databases.first?.bodyByteCount ?? 0 > 10_000)
        let characteristics = databases.first?.database?.accessories.flatMap { $0.services.flatMap(\.characteristics) } ?? []
        #expect(characteristics.count > 190)
        let problems = analysis.events { if case .problem(let problem) = $0 { problem } else { nil } }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("late-response: the separate response 17 s later is matched by its token")
    func lateResponse() throws {
        let analysis = try RecordedAnalysis("coap/late-response")
        let problems = analysis.events { if case .problem(let problem) = $0 { problem } else { nil } }
        #expect(problems.isEmpty, "\(problems)")
    }
}
