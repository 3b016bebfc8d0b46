import Testing
import WireParsing
@testable import DNS

@Suite struct DNSHeaderTests {
    @Test func decodesEveryFlagOfAnMDNSResponse() throws {
        let bytes = Fixtures.hapAnnouncement
        var cursor = ByteCursor(bytes.span.bytes, layer: .dns)
        let header = try DNSHeader(parsing: &cursor)
        #expect(header.id == 0)
        #expect(header.isResponse)
        #expect(header.opcode == .query)
        #expect(header.isAuthoritativeAnswer)
        #expect(!header.isTruncated && !header.isRecursionDesired && !header.isRecursionAvailable)
        #expect(!header.isReservedBitSet && !header.isAuthenticData && !header.isCheckingDisabled)
        #expect(header.responseCode == .noError)
        #expect([header.questionCount, header.answerCount, header.authorityCount, header.additionalCount] == [0, 3, 0, 4])
    }

    @Test func keepsEveryFlagBitApart() throws {
        // QR, OPCODE 5 (UPDATE), TC, RA, AD and RCODE 3 set; AA, RD, Z and CD clear.
        let bytes = Wire.header(id: 0xBEEF, flags: 0b1_0101_0_1_0_1_0_1_0_0011)
        var cursor = ByteCursor(bytes.span.bytes, layer: .dns)
        let header = try DNSHeader(parsing: &cursor)
        #expect(header.id == 0xBEEF)
        #expect(header.isResponse)
        #expect(header.opcode == .update)
        #expect(!header.isAuthoritativeAnswer && header.isTruncated && !header.isRecursionDesired)
        #expect(header.isRecursionAvailable && !header.isReservedBitSet && header.isAuthenticData)
        #expect(!header.isCheckingDisabled)
        #expect(header.responseCode == .nameError)
        #expect(header.responseCode.description == "NXDOMAIN")
    }

    @Test func reportsAShortHeaderAsTruncated() {
        let bytes: [UInt8] = [0, 0, 0x84, 0, 0, 0, 0]
        let error = thrownError {
            var cursor = ByteCursor(bytes.span.bytes, layer: .dns)
            _ = try DNSHeader(parsing: &cursor)
        }
        #expect(error?.code == .truncated)
        #expect(error?.offset == 6)
    }
}

@Suite struct HAPAnnouncementMessageTests {
    let message: DNSMessage

    init() throws {
        message = try decodeMessage(Fixtures.hapAnnouncement)
    }

    @Test func holdsThreeAnswersAndFourAdditionalsWithoutDiagnostics() {
        #expect(Fixtures.hapAnnouncement.count == 268)
        #expect(message.questions.isEmpty)
        #expect(message.answers.map(\.type) == [.ptr, .srv, .txt])
        #expect(message.authorities.isEmpty)
        #expect(message.additionals.map(\.type) == [.a, .aaaa, .nsec, .nsec])
        #expect(message.diagnostics.isEmpty)
        #expect(message.records.count == 7)
    }

    @Test func decodesThePointerToTheInstance() throws {
        let ptr = message.answers[0]
        #expect(ptr.name == DNSName("_hap._tcp.local"))
        #expect(ptr.recordClass == .internet)
        #expect(!ptr.cacheFlush)
        #expect(ptr.ttl == 4500)
        #expect(ptr.offset == 12)
        #expect(ptr.dataOffset == 39)
        #expect(ptr.dataLength == 19)
        guard case .pointer(let instance) = ptr.data else { Issue.record("PTR data is \(ptr.data)"); return }
        #expect(instance.escapedText == #"Living\032Room\032Lamp._hap._tcp.local."#)
    }

    @Test func decodesTheServiceLocationWithTheCacheFlushBit() throws {
        let srv = message.answers[1]
        #expect(srv.cacheFlush)
        #expect(srv.recordClass == .internet)
        #expect(srv.ttl == 120)
        #expect(srv.name.displayText == "Living Room Lamp._hap._tcp.local")
        let expected = DNSServiceLocation(priority: 0, weight: 0, port: 51827, target: try dnsName("Living-Room-Lamp.local"))
        #expect(srv.data == .serviceLocation(expected))
    }

    @Test func keepsTheNineTextStringsByteForByte() {
        let txt = message.answers[2]
        #expect(txt.dataOffset == 107)
        guard case .text(let strings) = txt.data else { Issue.record("TXT data is \(txt.data)"); return }
        #expect(strings.strings.count == 9)
        #expect(strings.strings.first.map { Array($0) } == Array("c#=2".utf8))
        #expect(strings.strings.last.map { Array($0) } == Array("sh=yf4bzw==".utf8))
        #expect(strings.encodedStrings.count == 76)
    }

    @Test func decodesBothAddressesOfTheHost() {
        #expect(message.additionals[0].data == .address(.v4(0xC0A8_012A)))
        #expect(message.additionals[0].name == DNSName("living-room-lamp.local"))
        guard case .address(let v6) = message.additionals[1].data else { Issue.record("no AAAA"); return }
        #expect(v6.description == "fe80::1c2a:3bff:fe4c:5d6e")
        #expect(DNSAddress.v4(0xC0A8_012A).description == "192.168.1.42")
    }

    @Test func decodesTheNSECTypeBitmaps() {
        let instance = message.additionals[2]
        #expect(instance.data == .nextSecure(DNSNextSecure(nextName: instance.name, types: [.txt, .srv])))
        let host = message.additionals[3]
        #expect(host.data == .nextSecure(DNSNextSecure(nextName: host.name, types: [.a, .aaaa])))
    }

    @Test func failsCleanlyAsTruncatedOnEveryPrefix() {
        for length in 0..<Fixtures.hapAnnouncement.count {
            let prefix = Array(Fixtures.hapAnnouncement[..<length])
            let error = thrownError { _ = try decodeMessage(prefix) }
            #expect(error?.code == .truncated, "prefix of \(length) bytes")
            #expect((error?.offset ?? -1) <= length, "prefix of \(length) bytes")
        }
    }

    @Test func neverCrashesOrLoopsWhenAnyByteIsCorrupted() {
        var outcomes: [Bool: Int] = [:]
        for index in Fixtures.hapAnnouncement.indices {
            for replacement: UInt8 in [0x00, 0x3F, 0x7F, 0xC0, 0xFF] {
                var corrupted = Fixtures.hapAnnouncement
                corrupted[index] = replacement
                let decoded = (try? decodeMessage(corrupted)) != nil
                outcomes[decoded, default: 0] += 1
            }
        }
        // Some corruptions only change a value, others break the framing.
        #expect(outcomes[true, default: 0] > 0)
        #expect(outcomes[false, default: 0] > 0)
    }
}

@Suite struct QueryMessageTests {
    @Test func readsTheUnicastResponseBitAndTheKnownAnswer() throws {
        let message = try decodeMessage(Fixtures.hapBrowseQuery)
        #expect(!message.header.isResponse)
        let question = try #require(message.questions.first)
        #expect(question.name == DNSName("_hap._tcp.local"))
        #expect(question.type == .ptr)
        #expect(question.prefersUnicastResponse)
        #expect(question.questionClass == .internet)
        #expect(question.offset == 12)
        let knownAnswer = try #require(message.answers.first)
        #expect(knownAnswer.ttl == 4000)
        #expect(knownAnswer.data == .pointer(try dnsName(#"Living\032Room\032Lamp._hap._tcp.local"#)))
    }

    @Test func readsAQuestionWithoutTheUnicastResponseBit() throws {
        let bytes = Wire.header(flags: 0, questions: 1) + Wire.question(Wire.name("_hap", "_tcp", "local"), type: 12)
        let question = try #require(try decodeMessage(bytes).questions.first)
        #expect(!question.prefersUnicastResponse)
    }
}

@Suite struct DNSAddressTests {
    @Test(arguments: [
        (DNSAddress.v6(high: 0, low: 0), "::"),
        (.v6(high: 0, low: 1), "::1"),
        (.v6(high: 0x0001_0000_0000_0000, low: 0), "1::"),
        (.v6(high: 0x2001_0DB8_0000_0000, low: 0x0000_0000_0000_0001), "2001:db8::1"),
        (.v6(high: 0x2001_0DB8_0000_0001, low: 0x0001_0001_0001_0001), "2001:db8:0:1:1:1:1:1"),
        (.v6(high: 0x2001_0000_0000_0001, low: 0x0000_0000_0000_0001), "2001:0:0:1::1"),
        (.v4(0x7F00_0001), "127.0.0.1"),
    ])
    func formatsAddressesAsRFC5952AndDottedQuads(address: DNSAddress, text: String) {
        #expect(address.description == text)
    }
}

@Suite struct BufferEdgeTests {
    @Test func decodesAPayloadHandedOverAsARawBuffer() throws {
        let message = try Fixtures.hapAnnouncement.withUnsafeBytes { buffer in
            try DNSMessage(parsing: buffer)
        }
        #expect(message.records.count == 7)
    }

    @Test func namesRecordTypesAndClassesAsZoneFilesDo() {
        #expect(DNSRecordType.srv.description == "SRV")
        #expect(DNSRecordType(65534).description == "TYPE65534")
        #expect(DNSClass.internet.description == "IN")
        #expect(DNSClass(0x7FFF).description == "CLASS32767")
    }
}

@Suite struct EmbeddedMessageTests {
    @Test func resolvesPointersFromTheMessageStartAndReportsOffsetsInTheWholeInput() throws {
        // A message behind a 2-byte length prefix, as DNS over TCP frames it (RFC 1035 §4.2.2).
        let bytes = Wire.u16(UInt16(Fixtures.hapAnnouncement.count)) + Fixtures.hapAnnouncement
        var cursor = ByteCursor(bytes.span.bytes, layer: .dns, position: 2)
        let message = try DNSMessage(parsing: &cursor)
        #expect(message.offset == 2)
        #expect(message.answers.map(\.offset) == [14, 60, 97])
        #expect(message.answers[0].data == .pointer(try dnsName(#"Living\032Room\032Lamp._hap._tcp.local"#)))
        let atEnd = cursor.isAtEnd
        #expect(atEnd)
    }
}
