import HAPEvents
import HAPJSON
import HTTP1
import Packets
import TCPReassembly
import Testing
import WireParsing

@Suite("The registry of limits")
struct AnalysisLimitTests {
    @Test func everyLimitHasOneNameAndTheNamesTheParsersReport() {
        let names = AnalysisLimit.all.map(\.name)
        #expect(Set(names).count == names.count)
        // The names the codecs declare next to their bounds are the ones --limit accepts.
        let declared: [LimitName] = [
            .tcpConnections, .tcpBufferedBytesPerDirection, .tcpBufferedBytes, .tcpOutOfOrderSegments, .tcpIdleTimeout,
            .tcpClosedRetention, .httpStartLine, .httpHeaderBlock, .httpHeaders, .httpBody, .httpChunk, .httpChunkLine,
            .jsonDocument, .jsonDepth, .jsonValues, .jsonString, .jsonNumber, .ipFragmentDatagrams, .ipFragmentBytes,
            .ipFragmentsPerDatagram, .frameLength, .frameCounterSearch, .frameJoinChecks, .httpPendingRequests, .mdnsInstances,
            .coapSessions, .coapCounterSearch, .coapBlockwiseBody, .coapPendingRequests, .coapHeldBytes,
            .bleConnections, .bleL2CAPFrame, .bleL2CAPPending, .bleGATTValue, .bleAttributes, .blePDUBody, .bleAdvertisers,
            .bleBroadcastGSNSearch,
        ]
        #expect(Set(names) == Set(declared))
    }

    @Test func aLimitIsReadAndSetInTheLimitsItNames() throws {
        var limits = AnalysisLimits()
        let body = try #require(AnalysisLimit.named(.httpBody))
        #expect(body.value(in: limits) == limits.http.maxBodySize)
        body.set(4096, in: &limits)
        #expect(limits.http.maxBodySize == 4096)
        let depth = try #require(AnalysisLimit.named(.jsonDepth))
        depth.set(0, in: &limits)
        #expect(limits.json.maximumDepth == depth.minimum, "a value below the minimum is raised to it")
    }

    @Test(arguments: [
        ("1048576", 1_048_576), ("64k", 65_536), ("64K", 65_536), ("2M", 2_097_152), ("1G", 1_073_741_824),
    ])
    func byteCountsTakeBinarySuffixes(text: String, value: Int) throws {
        #expect(try #require(AnalysisLimit.named(.httpBody)).parse(text) == value)
    }

    @Test(arguments: ["", "-1", "1.5", "k", "9223372036854775807k"])
    func aValueThatIsNotACountIsRefused(text: String) throws {
        #expect(try #require(AnalysisLimit.named(.httpBody)).parse(text) == nil)
    }

    @Test func countsTakeNoSuffix() throws {
        #expect(try #require(AnalysisLimit.named(.tcpConnections)).parse("4k") == nil)
    }

    @Test func valuesAreShownInTheirUnit() throws {
        #expect(try #require(AnalysisLimit.named(.httpBody)).describe(16 << 20) == "16M")
        #expect(try #require(AnalysisLimit.named(.httpBody)).describe(1000) == "1000")
        #expect(try #require(AnalysisLimit.named(.tcpIdleTimeout)).describe(7200) == "7200 s")
        #expect(try #require(AnalysisLimit.named(.tcpConnections)).describe(32768) == "32768")
    }
}
