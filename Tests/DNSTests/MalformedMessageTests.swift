import Testing
import WireParsing
@testable import DNS

/// A response holding `records`, with the header counting them as answers.
private func response(_ records: [UInt8]..., answers: UInt16? = nil) -> [UInt8] {
    Wire.header(flags: Wire.responseFlags, answers: answers ?? UInt16(records.count)) + records.flatMap { $0 }
}

private let hostA = Wire.record(Wire.name("host", "local"), type: Wire.typeA, ttl: 120, data: [10, 0, 0, 1])

@Suite struct BrokenFramingTests {
    @Test func throwsOnACompressionLoopInAnOwnerName() {
        // The owner at 12 is a pointer to itself.
        let bytes = response(Wire.pointer(12) + Wire.u16(Wire.typeA) + Wire.u16(1) + Wire.u32(120) + Wire.u16(4) + [1, 2, 3, 4])
        let error = thrownError { _ = try decodeMessage(bytes) }
        #expect(error?.code == .malformed)
        #expect(error?.layer == .dns)
        #expect(error?.offset == 12)
    }

    @Test func throwsOnAnOwnerPointerOutOfRange() {
        let bytes = response(Wire.pointer(500) + Wire.u16(Wire.typeA) + Wire.u16(1) + Wire.u32(120) + Wire.u16(4) + [1, 2, 3, 4])
        let error = thrownError { _ = try decodeMessage(bytes) }
        #expect(error?.code == .malformed)
        #expect(error?.offset == 12)
    }

    @Test func throwsOnAForwardPointerChain() {
        // The owner at 12 points to 14, which points to 16: both jump forward.
        let bytes = Wire.header(flags: Wire.responseFlags, answers: 1) + Wire.pointer(14) + Wire.pointer(16)
            + Wire.name("local") + Wire.u16(Wire.typeA) + Wire.u16(1) + Wire.u32(120) + Wire.u16(4) + [1, 2, 3, 4]
        let error = thrownError { _ = try decodeMessage(bytes) }
        #expect(error?.code == .malformed)
        #expect(error?.offset == 12)
    }

    @Test func throwsOnALabelLongerThan63Bytes() {
        let owner: [UInt8] = [64] + [UInt8](repeating: 0x61, count: 64) + [0]
        let bytes = response(Wire.record(owner, type: Wire.typeA, ttl: 120, data: [1, 2, 3, 4]))
        let error = thrownError { _ = try decodeMessage(bytes) }
        #expect(error?.code == .malformed)
        #expect(error?.offset == 12)
    }

    @Test func throwsTruncatedWhenRDLENGTHRunsPastTheEnd() {
        let record = Wire.name("host", "local") + Wire.u16(Wire.typeA) + Wire.u16(1) + Wire.u32(120) + Wire.u16(200)
            + [10, 0, 0, 1]
        let error = thrownError { _ = try decodeMessage(response(record)) }
        #expect(error?.code == .truncated)
        // The record data starts after the 12-byte header, the 12-byte owner and 10 fixed bytes.
        #expect(error?.offset == 34)
        #expect(error?.expected.contains("RDLENGTH") == true)
    }

    @Test func throwsTruncatedWhenTheCountsPromiseMoreThanTheMessageHolds() {
        let bytes = response(hostA, answers: 3)
        let error = thrownError { _ = try decodeMessage(bytes) }
        #expect(error?.code == .truncated)
        #expect(error?.offset == bytes.count)
    }

    @Test func refusesCountsAboveTheEntryLimitBeforeReadingAnyRecord() {
        let bytes = Wire.header(flags: Wire.responseFlags, questions: 0xFFFF, answers: 0xFFFF, authorities: 0xFFFF,
                                additionals: 0xFFFF)
        let error = thrownError { _ = try decodeMessage(bytes) }
        #expect(error?.code == .limitExceeded)
        let raisedLimit = DNSDecodingOptions(maxEntries: 4 * 0xFFFF)
        let truncated = thrownError { _ = try decodeMessage(bytes, options: raisedLimit) }
        #expect(truncated?.code == .truncated)
        #expect(truncated?.offset == 12)
    }
}

@Suite struct RecordDataTests {
    @Test func reportsAnAddressOfTheWrongSizeAndKeepsDecoding() throws {
        let badA = Wire.record(Wire.name("bad", "local"), type: Wire.typeA, ttl: 120, data: [10, 0, 0, 1, 9])
        let message = try decodeMessage(response(badA, hostA))
        #expect(message.answers.count == 2)
        guard case .undecodable(let bytes, let reason) = message.answers[0].data else {
            Issue.record("bad A decoded as \(message.answers[0].data)")
            return
        }
        #expect(bytes == [10, 0, 0, 1, 9])
        #expect(reason.code == .malformed)
        #expect(message.answers[1].data == .address(.v4(0x0A00_0001)))
        #expect(message.diagnostics == [
            DNSMessageDiagnostic(offset: message.answers[0].dataOffset, kind: .undecodableRecordData(type: .a, reason: reason)),
        ])
    }

    @Test func throwsOnDataThatDoesNotFitItsTypeWhenStrict() {
        let badA = Wire.record(Wire.name("bad", "local"), type: Wire.typeA, ttl: 120, data: [10, 0, 0])
        let error = thrownError { _ = try decodeMessage(response(badA, hostA), options: DNSDecodingOptions(isStrict: true)) }
        #expect(error?.code == .malformed)
        #expect(error?.offset == 33)
    }

    @Test func reportsANameThatRunsPastItsRDLENGTHAsMalformed() throws {
        // PTR data of 3 bytes holding the start of a 5-byte label; the next record follows.
        let ptr = Wire.record(Wire.name("_hap", "_tcp", "local"), type: Wire.typePTR, ttl: 4500, data: [5, 0x41, 0x42])
        let message = try decodeMessage(response(ptr, hostA))
        guard case .undecodable(_, let reason) = message.answers[0].data else { Issue.record("PTR decoded"); return }
        #expect(reason.code == .malformed)
        #expect(reason.expected.contains("RDLENGTH"))
        #expect(message.answers[1].type == .a)
    }

    @Test func reportsBytesLeftOverAfterANameInItsRecordData() throws {
        let ptr = Wire.record(Wire.name("_hap", "_tcp", "local"), type: Wire.typePTR, ttl: 4500,
                              data: Wire.name("x", "local") + [0xEE])
        let message = try decodeMessage(response(ptr))
        guard case .undecodable(_, let reason) = message.answers[0].data else { Issue.record("PTR decoded"); return }
        #expect(reason.code == .malformed)
    }

    @Test func reportsACompressionLoopInsideRecordDataWithoutLosingTheMessage() throws {
        // The PTR's data at 39 is a pointer to itself.
        let ptr = Wire.record(Wire.name("_hap", "_tcp", "local"), type: Wire.typePTR, ttl: 4500, data: Wire.pointer(39))
        let message = try decodeMessage(response(ptr, hostA))
        #expect(message.answers[0].dataOffset == 39)
        guard case .undecodable(_, let reason) = message.answers[0].data else { Issue.record("PTR decoded"); return }
        #expect(reason.code == .malformed)
        #expect(reason.offset == 39)
        #expect(message.answers[1].data == .address(.v4(0x0A00_0001)))
    }

    @Test func reportsATextStringLongerThanItsRecordData() throws {
        let txt = Wire.record(Wire.name("x", "local"), type: Wire.typeTXT, ttl: 4500, data: [4, 0x63, 0x23, 0x3D])
        let message = try decodeMessage(response(txt))
        guard case .undecodable(_, let reason) = message.answers[0].data else { Issue.record("TXT decoded"); return }
        #expect(reason.code == .malformed)
    }

    @Test func reportsServiceLocationDataShorterThanItsFixedFields() throws {
        let srv = Wire.record(Wire.name("x", "local"), type: Wire.typeSRV, ttl: 120, data: [0, 0, 0, 0, 0x15])
        let message = try decodeMessage(response(srv))
        guard case .undecodable(_, let reason) = message.answers[0].data else { Issue.record("SRV decoded"); return }
        #expect(reason.code == .malformed)
    }

    @Test func reportsTypeBitmapWindowsOutOfOrder() throws {
        let nsec = Wire.record(Wire.name("x", "local"), type: Wire.typeNSEC, ttl: 120,
                               data: Wire.name("x", "local") + [0x01, 0x01, 0x80, 0x00, 0x01, 0x40])
        let message = try decodeMessage(response(nsec))
        guard case .undecodable(_, let reason) = message.answers[0].data else { Issue.record("NSEC decoded"); return }
        #expect(reason.expected.contains("increasing"))
    }

    @Test func reportsATypeBitmapLongerThan32Bytes() throws {
        let nsec = Wire.record(Wire.name("x", "local"), type: Wire.typeNSEC, ttl: 120,
                               data: Wire.name("x", "local") + [0x00, 33] + [UInt8](repeating: 0, count: 33))
        let message = try decodeMessage(response(nsec))
        guard case .undecodable = message.answers[0].data else { Issue.record("NSEC decoded"); return }
    }

    @Test func decodesTypesInHigherBitmapWindows() throws {
        // Window 1 bit 0 is type 256 (URI); window 0 byte 0 bit 1 is A.
        let nsec = Wire.record(Wire.name("x", "local"), type: Wire.typeNSEC, ttl: 120,
                               data: Wire.name("x", "local") + [0x00, 0x01, 0x40, 0x01, 0x01, 0x80])
        let message = try decodeMessage(response(nsec))
        #expect(message.answers[0].data == .nextSecure(DNSNextSecure(nextName: try dnsName("x.local"), types: [.a, DNSRecordType(256)])))
    }

    @Test func keepsUnknownTypesAsRawBytes() throws {
        let unknown = Wire.record(Wire.name("x", "local"), type: 65280, ttl: 120, data: [1, 2, 3])
        let message = try decodeMessage(response(unknown))
        #expect(message.answers[0].data == .unknown([1, 2, 3]))
        #expect(message.answers[0].type.description == "TYPE65280")
    }

    @Test func decodesHostInfoAndCanonicalNames() throws {
        let hinfo = Wire.record(Wire.name("host", "local"), type: Wire.typeHINFO, ttl: 120,
                                data: [3] + Array("ARM".utf8) + [5] + Array("Linux".utf8))
        let cname = Wire.record(Wire.name("alias", "local"), type: Wire.typeCNAME, ttl: 120, data: Wire.labels("host") + Wire.pointer(17))
        let message = try decodeMessage(response(hinfo, cname))
        #expect(message.answers[0].data == .hostInfo(DNSHostInfo(cpu: Array("ARM".utf8), operatingSystem: Array("Linux".utf8))))
        #expect(message.answers[1].data == .canonicalName(try dnsName("host.local")))
    }
}

@Suite struct OptRecordTests {
    /// An OPT record: root owner, CLASS 1440 (payload size), TTL 0 with DO clear, one Owner
    /// option as mDNSResponder adds for sleep proxies.
    private let opt = Wire.name() + Wire.u16(Wire.typeOPT) + Wire.u16(1440) + Wire.u32(0x0000_8000) + Wire.u16(12)
        + Wire.u16(4) + Wire.u16(8) + [0x00, 0x00, 0x02, 0x11, 0x22, 0x33, 0x44, 0x55]

    @Test func decodesThePayloadSizeFlagsAndRawOptions() throws {
        let bytes = Wire.header(flags: Wire.responseFlags, answers: 1, additionals: 1) + hostA + opt
        let message = try decodeMessage(bytes)
        #expect(message.diagnostics.isEmpty)
        let record = try #require(message.additionals.first)
        #expect(!record.cacheFlush)
        guard case .options(let edns) = record.data else { Issue.record("OPT is \(record.data)"); return }
        #expect(edns.udpPayloadSize == 1440)
        #expect(edns.version == 0)
        #expect(edns.isDNSSECOK)
        #expect(edns.options == [DNSOptRecord.Option(code: 4, data: [0x00, 0x00, 0x02, 0x11, 0x22, 0x33, 0x44, 0x55])])
        #expect(edns.options[0].name == "Owner")
    }

    @Test func reportsAnOPTRecordOutsideTheAdditionalSection() throws {
        let message = try decodeMessage(response(opt))
        #expect(message.diagnostics.map(\.kind) == [.optionRecordOutsideAdditionalSection])
        let strict = thrownError { _ = try decodeMessage(response(opt), options: DNSDecodingOptions(isStrict: true)) }
        #expect(strict?.code == .malformed)
    }

    @Test func reportsASecondOPTRecord() throws {
        let bytes = Wire.header(flags: Wire.responseFlags, additionals: 2) + opt + opt
        let message = try decodeMessage(bytes)
        #expect(message.diagnostics.map(\.kind) == [.repeatedOptionRecord])
    }
}

@Suite struct TrailingBytesTests {
    @Test func reportsBytesAfterTheLastCountedRecord() throws {
        let bytes = response(hostA) + [0xDE, 0xAD]
        let message = try decodeMessage(bytes)
        #expect(message.diagnostics == [DNSMessageDiagnostic(offset: bytes.count - 2, kind: .trailingBytes(count: 2))])
        let strict = thrownError { _ = try decodeMessage(bytes, options: DNSDecodingOptions(isStrict: true)) }
        #expect(strict?.code == .malformed)
        #expect(strict?.offset == bytes.count - 2)
    }
}
