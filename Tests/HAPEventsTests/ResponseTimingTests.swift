import HAPEvents
import Packets
import Testing

@Suite("Response times and the requests a connection left unanswered")
struct ResponseTimingTests {
    @Test("a response within 3 s is prompt, later slow (HAP-NodeJS warns), past 10 s past its timeout",
          arguments: [(0.09, ResponseTiming.Verdict.prompt), (3.0, .prompt), (4.0, .slow), (9.0, .slow), (10.5, .pastTimeout)])
    func verdicts(_ seconds: Double, _ verdict: ResponseTiming.Verdict) {
        #expect(ResponseTiming(seconds: seconds).verdict == verdict)
    }

    @Test("past the controller's own timeout, where the transport knows it, a response came after the controller gave up",
          arguments: [(2.0, ResponseTiming.Verdict.prompt), (12.0, .pastTimeout), (16.0, .pastTimeout), (17.0, .afterControllerTimeout)])
    func controllerTimeout(_ seconds: Double, _ verdict: ResponseTiming.Verdict) {
        let timing = ResponseTiming(seconds: seconds, controllerTimeoutSeconds: 16)
        #expect(timing.verdict == verdict)
        #expect(timing.controllerTimeoutSeconds == 16)
        // Without a known timeout the slow marks alone judge it.
        #expect(ResponseTiming(seconds: 17).verdict == .pastTimeout)
    }

    @Test("the time runs from the request's last packet to the response's first")
    func measuredBetweenPackets() {
        let request = PacketInfo(number: 9, timestamp: Timestamp(seconds: 100, nanoseconds: 500_000_000), capturedLength: 90, originalLength: 90)
        let response = PacketInfo(number: 12, timestamp: Timestamp(seconds: 104, nanoseconds: 0), capturedLength: 90, originalLength: 90)
        #expect(ResponseTiming(request: request, response: response).seconds == 3.5)
        #expect(ResponseTiming(request: response, response: request).seconds == 0)
    }

    @Test("a request outstanding at a FIN or RST was never answered; at the capture's end only once it waited past the slow mark")
    func neverAnswered() {
        let request = HTTPMessageEvent.RequestReference(
            method: "GET", target: "/characteristics?id=2.10",
            packet: PacketInfo(number: 99, timestamp: Timestamp(seconds: 0, nanoseconds: 0), capturedLength: 1, originalLength: 1))
        let brief = ConnectionSummary.UnansweredRequest(request: request, waitedSeconds: 0.2)
        let long = ConnectionSummary.UnansweredRequest(request: request, waitedSeconds: 30)
        #expect(brief.isNeverAnswered(closedBy: .closed) && brief.isNeverAnswered(closedBy: .reset))
        #expect(!brief.isNeverAnswered(closedBy: .captureEnded))
        #expect(long.isNeverAnswered(closedBy: .captureEnded))
        // What the accessory sent was not all read: its answer may be among the lost bytes.
        let lost = ConnectionSummary.UnansweredRequest(request: request, waitedSeconds: 30, accessoryDirectionSeenWhole: false)
        #expect(!lost.isNeverAnswered(closedBy: .closed))
    }
}
