@testable import HTTP1
import Testing

@Suite struct HTTPStartLineCandidateTests {
    private func verdict(_ text: String) -> HTTPStartLineCandidate.Verdict {
        Array(text.utf8).withUnsafeBytes { HTTPStartLineCandidate.classify($0, from: 0) }
    }

    @Test func statusEventAndRequestLinesArePlausible() {
        #expect(verdict("HTTP/1.1 200 OK") == .plausible)
        #expect(verdict("HTTP/1.0 ") == .plausible)
        #expect(verdict("EVENT/1.0 200 OK") == .plausible)
        #expect(verdict("GET /accessories") == .plausible)
        #expect(verdict("PUT /") == .plausible)
        #expect(verdict("MKCALENDAR /x") == .plausible)
    }

    @Test func bodyLinesAreImplausible() {
        #expect(verdict("{\"characteristics\":[]}") == .implausible)
        #expect(verdict("HTTP/1.1x") == .implausible)
        #expect(verdict("HTTP/2.0 200") == .implausible)
        #expect(verdict("EVENT/1.1 200") == .implausible)
        #expect(verdict("get /lower") == .implausible)
        #expect(verdict("GET x") == .implausible)
        #expect(verdict("GETTING/x") == .implausible)
        #expect(verdict(" GET /") == .implausible)
        #expect(verdict("ABCDEFGHIJKLMNOPQ /") == .implausible)
    }

    @Test func aPrefixOfAPlausibleLineIsUndecided() {
        #expect(verdict("") == .undecided)
        #expect(verdict("H") == .undecided)
        #expect(verdict("HTTP/1.") == .undecided)
        #expect(verdict("EVENT/1.0") == .undecided)
        #expect(verdict("POST") == .undecided)
        #expect(verdict("POST ") == .undecided)
    }
}
