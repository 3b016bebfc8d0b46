import HAPAnalysis
import HAPCore
import HAPEvents
import Testing
import TestSupport

/// One broken mDNS message and what the problem it causes must say.
struct HostileMDNS: Sendable, CustomTestStringConvertible {
    let name: String
    let message: [UInt8]
    let expected: [String]

    var testDescription: String { name }

    static let all: [HostileMDNS] = [
        HostileMDNS(name: "a name that points at itself", message: MDNSMessages.selfPointingName,
                    expected: ["dns: malformed at byte 12", "is not earlier"]),
        HostileMDNS(name: "two labels that point at each other", message: MDNSMessages.pointerLoop,
                    expected: ["dns: malformed at byte 14", "is not earlier"]),
        HostileMDNS(name: "a compression pointer past the end of the message", message: MDNSMessages.pointerPastEnd,
                    expected: ["dns: malformed at byte 12", "offset 1023 of 28 bytes"]),
        HostileMDNS(name: "a compression pointer to a later name", message: MDNSMessages.forwardPointer,
                    expected: ["dns: malformed at byte 12", "offset 28 is not earlier"]),
        HostileMDNS(name: "record data longer than the message", message: MDNSMessages.dataLengthPastEnd,
                    expected: ["dns: truncated at byte 31", "RDLENGTH"]),
        HostileMDNS(name: "a header announcing 196605 records", message: MDNSMessages.countsBeyondMessage,
                    expected: ["dns: limit exceeded at byte 4", "not 196605"]),
    ]
}

/// Hostile mDNS: compression loops, pointers out of range, lengths past the end. Each message is
/// reported as an `undecodable-mdns` problem with its packet and byte offset; the advertisement
/// and the HAP connection that follow are still decoded.
@Suite("Hostile mDNS")
struct HostileMDNSTests {
    @Test("A broken mDNS message is reported with its offset and the advertisements after it are decoded", arguments: HostileMDNS.all)
    func brokenMessage(_ hostile: HostileMDNS) throws {
        let exchange = HAPExchange()

        let analysis = try Analysis(frames: [Frames.mdns(hostile.message), Frames.mdns(MDNSMessages.hapAdvertisement)] + exchange.frames)

        let reported = analysis.problemEvents(.undecodableMDNS)
        try #require(reported.count == 1)
        #expect(reported[0].packet?.number == 1)
        for words in hostile.expected {
            #expect(reported[0].problem.message.contains(words), "\(reported[0].problem.message)")
        }
        let advertisement = try #require(analysis.advertisements.first)
        #expect(advertisement.service.hap?.deviceID == "1A:2B:3C:4D:5E:6F")
        #expect(analysis.decoded(exchange))
    }

    @Test("A TXT record whose keys and values are not UTF-8 is decoded with diagnostics, not refused")
    func invalidUTF8InTXT() throws {
        let analysis = try Analysis(frames: [Frames.mdns(MDNSMessages.invalidUTF8TXT)])

        #expect(analysis.problems(.undecodableMDNS).isEmpty)
        let advertisement = try #require(analysis.advertisements.first)
        let txt = try #require(advertisement.service.txt)
        let unprintable = txt.diagnostics.filter { if case .keyNotPrintableASCII = $0.kind { true } else { false } }
        #expect(unprintable.count == 1)
        #expect(txt["md"]?.value == [0xFF, 0xFE, 0xC3])
        #expect(advertisement.service.hap?.deviceID == "1A:2B:3C:4D:5E:6F")
    }
}
