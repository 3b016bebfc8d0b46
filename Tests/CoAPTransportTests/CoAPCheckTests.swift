import Foundation
import Testing
import TestSupport

/// `hapscope check` over the HAP-over-CoAP corpus: every capture decodes exactly as its expected
/// decode in captures/coap/expected/ says (rewritten with `hapscope check --update captures/coap/*.pcap`).
@Suite(.serialized) struct CoAPCheckTests {
    @Test func everyCoAPCaptureDecodesExactlyAsExpected() throws {
        let captures = CoAPCaptureTests.scenarios.map { "captures/coap/\($0).pcap" }
        let result = try HapscopeBinary.run(["check"] + captures)
        #expect(result.status == 0, "\(result.standardOutput)")
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == captures.count && lines.allSatisfy { $0.hasPrefix("ok   ") }, "\(result.standardOutput)")
    }
}
