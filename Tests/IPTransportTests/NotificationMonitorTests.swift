import HAPCatalog
import HAPEvents
import HAPJSON
import HTTP1
import Packets
import Testing
import TestSupport
import WireParsing
@testable import IPTransport

@Suite("Judging EVENTs against coalescing, pending requests and unsubscriptions")
struct NotificationMonitorTests {
    let light = CharacteristicID(aid: 8, iid: 9)
    let button = CharacteristicID(aid: 3, iid: 10)

    private func packet(_ number: Int, atMilliseconds milliseconds: Int) -> PacketInfo {
        .numbered(number, at: Timestamp(seconds: 1_700_000_000 + Int64(milliseconds / 1000), nanoseconds: UInt32(milliseconds % 1000) * 1_000_000))
    }

    private func writes(_ json: String) throws -> CharacteristicWriteRequest {
        let body = Array(json.utf8)
        var cursor = ByteCursor(body.span.bytes, layer: .json)
        return try CharacteristicWriteRequest(parsing: &cursor)
    }

    private func noTypes(_: CharacteristicID) -> HAPUUID? { nil }

    @Test("the third EVENT of one characteristic within a second is a burst, reported once while the burst lasts")
    func burstIsReportedOnce() {
        var monitor = NotificationMonitor()
        var problems: [[NotificationProblem]] = []
        for (index, milliseconds) in [0, 100, 200, 300, 400].enumerated() {
            problems.append(monitor.judge(eventFor: [light], at: packet(index + 1, atMilliseconds: milliseconds), pending: nil, type: noTypes))
        }
        #expect(problems[0].isEmpty && problems[1].isEmpty)
        #expect(problems[2] == [.burst(light, seconds: 0.2)])
        #expect(problems[3].isEmpty && problems[4].isEmpty)
    }

    @Test("EVENTs coalesced as HAP-python does (0.5 s apart) are no burst; a new burst after a quiet second is reported again")
    func coalescedEventsAreNoBurst() {
        var monitor = NotificationMonitor()
        let times = [0, 500, 1000, 1500, 5000, 5010, 5020]
        let problems = times.enumerated().map { index, milliseconds in
            monitor.judge(eventFor: [light], at: packet(index + 1, atMilliseconds: milliseconds), pending: nil, type: noTypes)
        }
        #expect(problems[..<6].allSatisfy { $0.isEmpty })
        #expect(problems[6] == [.burst(light, seconds: 0.02)])
    }

    @Test("Programmable Switch Event and Button Event are delivered at once and never make a burst")
    func immediateCharacteristicsAreExempt() {
        var monitor = NotificationMonitor()
        let problems = (0..<5).flatMap { index in
            monitor.judge(eventFor: [button], at: packet(index + 1, atMilliseconds: index * 10), pending: nil) { _ in HAPUUID(appleDefined: 0x73) }
        }
        #expect(problems.isEmpty)
    }

    @Test("an EVENT more than 0.1 s after a request was complete, before its response, is inside the response")
    func eventInsideResponse() {
        var monitor = NotificationMonitor()
        let request = PendingRequest(method: "GET", target: "/characteristics?id=6.11", endpoint: .characteristics, packet: packet(1, atMilliseconds: 0))
        #expect(monitor.judge(eventFor: [light], at: packet(2, atMilliseconds: 50), pending: request, type: noTypes).isEmpty)
        let late = monitor.judge(eventFor: [button], at: packet(3, atMilliseconds: 300), pending: request, type: noTypes)
        #expect(late == [.insideResponse(request: .init(method: "GET", target: "/characteristics?id=6.11", packet: request.packet), secondsAfterRequest: 0.3)])
    }

    @Test("an EVENT after a 204 to \"ev\": false is after unsubscribing; subscribing again, or a 207, clears it")
    func eventAfterUnsubscribe() throws {
        var monitor = NotificationMonitor()
        let unsubscribe = try writes(#"{"characteristics":[{"aid":8,"iid":9,"ev":false}]}"#)
        monitor.writeAnswered(unsubscribe, status: .noContent, packet: packet(1, atMilliseconds: 0))
        let after = monitor.judge(eventFor: [light], at: packet(2, atMilliseconds: 2000), pending: nil, type: noTypes)
        #expect(after == [.afterUnsubscribe(light, unsubscribedAt: packet(1, atMilliseconds: 0))])

        monitor.writeAnswered(try writes(#"{"characteristics":[{"aid":8,"iid":9,"ev":true}]}"#), status: .noContent, packet: packet(3, atMilliseconds: 3000))
        #expect(monitor.judge(eventFor: [light], at: packet(4, atMilliseconds: 5000), pending: nil, type: noTypes).isEmpty)

        // A 207 says per entry whether the unsubscription took effect; it is not taken as certain.
        monitor.writeAnswered(unsubscribe, status: .multiStatus, packet: packet(5, atMilliseconds: 6000))
        #expect(monitor.judge(eventFor: [light], at: packet(6, atMilliseconds: 8000), pending: nil, type: noTypes).isEmpty)
    }

    @Test("a hostile accessory naming ever more characteristics is followed for the first 4,096 only")
    func boundedPerConnection() throws {
        var monitor = NotificationMonitor()
        let limit = NotificationMonitor.maximumTrackedCharacteristics
        let entries = (0...limit).map { #"{"aid":1,"iid":\#($0 + 1),"ev":false}"# }.joined(separator: ",")
        monitor.writeAnswered(try writes(#"{"characteristics":[\#(entries)]}"#), status: .noContent, packet: packet(1, atMilliseconds: 0))
        let last = CharacteristicID(aid: 1, iid: UInt64(limit + 1))
        let first = CharacteristicID(aid: 1, iid: 1)
        #expect(monitor.judge(eventFor: [last], at: packet(2, atMilliseconds: 10), pending: nil, type: noTypes).isEmpty)
        #expect(monitor.judge(eventFor: [first], at: packet(3, atMilliseconds: 20), pending: nil, type: noTypes)
            == [.afterUnsubscribe(first, unsubscribedAt: packet(1, atMilliseconds: 0))])
    }
}
