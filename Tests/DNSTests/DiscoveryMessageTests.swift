import Testing
@testable import DNS

private func discovery(_ bytes: [UInt8]) throws -> DiscoveryMessage {
    DiscoveryMessage(try decodeMessage(bytes))
}

@Suite struct HAPAnnouncementDiscoveryTests {
    @Test func findsOneAccessoryWithEverythingAConsumerNeeds() throws {
        let message = try discovery(Fixtures.hapAnnouncement)
        #expect(message.isResponse)
        #expect(message.queries.isEmpty)
        #expect(message.diagnostics.isEmpty)
        #expect(message.services.count == 1)
        let accessory = try #require(message.services.first)
        #expect(accessory.instance.instanceText == "Living Room Lamp")
        #expect(accessory.serviceType.serviceAndTransport == "_hap._tcp")
        #expect(accessory.location?.port == 51827)
        #expect(accessory.location?.target == (try dnsName("Living-Room-Lamp.local")))
        #expect(accessory.locationTTL == 120)
        #expect(accessory.txtTTL == 4500)
        #expect(accessory.addresses.map(\.address.description) == ["192.168.1.42", "fe80::1c2a:3bff:fe4c:5d6e"])
        #expect(accessory.addresses.allSatisfy { $0.cacheFlush && $0.ttl == 120 })
        #expect(accessory.pointers.map(\.ttl) == [4500])
        #expect(accessory.pointers.first?.owner == (try dnsName("_hap._tcp.local")))
        #expect(!accessory.isGoodbye)
        #expect(accessory.offset == 12)
        #expect(accessory.matter == nil)
    }

    @Test func decodesTheAccessorysHAPKeys() throws {
        let accessory = try #require(try discovery(Fixtures.hapAnnouncement).services.first)
        let hap = try #require(accessory.hap)
        #expect(hap.deviceID == "E1:91:1A:70:85:AA")
        #expect(hap.categoryName == "Lightbulb")
        #expect(hap.statusFlags == .notPaired)
        #expect(hap.setupHash == [0xC9, 0xFE, 0x1B, 0xCF])
        #expect(hap.diagnostics.isEmpty)
        // Offsets point into the UDP payload: the TXT data starts at 107.
        #expect(hap.fields.first?.offset == 107)
    }

    @Test func listsThePointerRecords() throws {
        let message = try discovery(Fixtures.hapAnnouncement)
        #expect(message.pointers.count == 1)
        #expect(message.pointers[0].serviceType?.service == "_hap")
        #expect(message.pointers[0].target.displayText == "Living Room Lamp._hap._tcp.local")
        #expect(message.knownAnswers.isEmpty)
    }

    @Test func notesAnSRVTargetWithoutAddressRecords() throws {
        // The announcement without its A, AAAA and NSEC records.
        var bytes = Array(Fixtures.hapAnnouncement[..<183])
        bytes[11] = 0
        let message = try discovery(bytes)
        #expect(message.services.first?.addresses == [])
        #expect(message.diagnostics == [
            DiscoveryDiagnostic(
                offset: 58,
                kind: .targetWithoutAddress(
                    instance: try dnsName(#"Living\032Room\032Lamp._hap._tcp.local"#),
                    target: try dnsName("Living-Room-Lamp.local"))),
        ])
    }

    @Test func findsAddressesWhateverTheCaseOfTheHostName() throws {
        let header = Wire.header(flags: Wire.responseFlags, answers: 2)
        let srv = Wire.record(
            Wire.name("Lamp", "_hap", "_tcp", "local"), type: Wire.typeSRV, class: Wire.classINFlush, ttl: 120,
            data: Wire.u16(0) + Wire.u16(0) + Wire.u16(80) + Wire.name("LAMP", "LOCAL"))
        let a = Wire.record(Wire.name("lamp", "local"), type: Wire.typeA, class: Wire.classINFlush, ttl: 120, data: [10, 0, 0, 7])
        let message = try discovery(header + srv + a)
        #expect(message.services.first?.addresses.map(\.address) == [.v4(0x0A00_0007)])
        #expect(message.diagnostics.isEmpty)
    }
}

@Suite struct GoodbyeDiscoveryTests {
    @Test func marksAnInstanceWhoseRecordsAllHaveTTLZeroAsLeaving() throws {
        let message = try discovery(Fixtures.hapGoodbye)
        let accessory = try #require(message.services.first)
        #expect(accessory.isGoodbye)
        #expect(accessory.pointers.allSatisfy { $0.isGoodbye })
        #expect(accessory.locationTTL == 0)
        // A leaving instance needs no addresses.
        #expect(message.diagnostics.isEmpty)
    }

    @Test func doesNotCallAnInstanceLeavingWhileOneRecordStillLives() throws {
        var bytes = Fixtures.hapGoodbye
        // The SRV record at 58 gets a TTL (at 64…67) of 120.
        bytes[67] = 120
        let accessory = try #require(try discovery(bytes).services.first)
        #expect(accessory.locationTTL == 120)
        #expect(!accessory.isGoodbye)
    }
}

@Suite struct QueryDiscoveryTests {
    @Test func listsWhoBrowsesForWhatAndTheAnswersTheyKnow() throws {
        let message = try discovery(Fixtures.hapBrowseQuery)
        #expect(!message.isResponse)
        #expect(message.services.isEmpty)
        let query = try #require(message.queries.first)
        #expect(query.serviceType?.serviceAndTransport == "_hap._tcp")
        #expect(query.type == .ptr)
        #expect(query.prefersUnicastResponse)
        #expect(query.instance == nil)
        #expect(message.knownAnswers.map(\.target.displayText) == ["Living Room Lamp._hap._tcp.local"])
        #expect(message.knownAnswers.first?.ttl == 4000)
        #expect(message.pointers.isEmpty)
    }

    @Test func recognisesAQueryResolvingOneInstance() throws {
        let bytes = Wire.header(flags: 0, questions: 1)
            + Wire.question(Wire.name("Living Room Lamp", "_hap", "_tcp", "local"), type: Wire.typeANY)
        let query = try #require(try discovery(bytes).queries.first)
        #expect(query.instance?.instanceText == "Living Room Lamp")
        #expect(query.serviceType == nil)
        #expect(query.type == .any)
    }
}

@Suite struct MatterDiscoveryTests {
    @Test func findsTheCommissionableNodeWithItsSubtypesAndKeys() throws {
        let message = try discovery(Fixtures.matterCommissionable)
        #expect(message.diagnostics.isEmpty)
        #expect(message.pointers.count == 5)
        #expect(message.services.count == 1)
        let node = try #require(message.services.first)
        #expect(node.instance.instanceText == "C326A1B8E4E1F3D2")
        #expect(node.location?.port == 5540)
        #expect(node.addresses.map(\.address.description) == ["fe80::e65f:1ff:fe49:ae3f"])
        #expect(node.subtypes.map { String(decoding: $0, as: UTF8.self) } == ["_L3840", "_S15", "_V65521", "_CM"])
        #expect(node.hap == nil)
        let matter = try #require(node.matter)
        #expect(matter.role == .commissionable)
        #expect(matter.subtypes == [.longDiscriminator(3840), .shortDiscriminator(15), .vendor(65521), .commissioningMode])
        #expect(matter.txt?.longDiscriminator == 3840)
        #expect(matter.txt?.deviceName == "Test Bulb")
        #expect(matter.allDiagnostics.isEmpty)
    }

    @Test func reportsAnUnknownSubtypeAtItsPointerRecord() throws {
        var bytes = Fixtures.matterCommissionable
        // The "_S15" subtype label, which owns the PTR record at 88, becomes "_X15".
        #expect(bytes[88...92] == [4, 0x5F, 0x53, 0x31, 0x35])
        bytes[90] = UInt8(ascii: "X")
        let matter = try #require(try discovery(bytes).services.first?.matter)
        #expect(matter.diagnostics == [MatterDiagnostic(offset: 88, kind: .unknownSubtype("_X15"))])
    }
}

@Suite struct HeaderDiscoveryTests {
    @Test func notesAnOpcodeOrResponseCodeMDNSReceiversIgnore() throws {
        var bytes = Fixtures.hapGoodbye
        bytes[2] |= 0x28  // OPCODE 5 (UPDATE)
        bytes[3] |= 0x03  // RCODE 3 (NXDOMAIN)
        let message = try discovery(bytes)
        #expect(message.diagnostics == [
            DiscoveryDiagnostic(offset: 2, kind: .nonzeroOpcode(.update)),
            DiscoveryDiagnostic(offset: 2, kind: .nonzeroResponseCode(.nameError)),
        ])
    }
}

@Suite struct MatterOperationalDiscoveryTests {
    /// A commissioned node on one fabric: PTRs for `_matter._tcp` and its `_I` subtype, SRV,
    /// TXT with the common keys only, AAAA.
    private let announcement: [UInt8] = {
        let header = Wire.header(flags: Wire.responseFlags, answers: 4, additionals: 1)
        // 12: _matter._tcp.local ("local" at 25) PTR <fabric>-<node>._matter._tcp.local (instance at 42)
        let ptr = Wire.record(
            Wire.name("_matter", "_tcp", "local"), type: Wire.typePTR, ttl: 4500,
            data: Wire.labels("2906C908D115D362-8FC7772401CD0696") + Wire.pointer(12))
        // 78: _I2906C908D115D362._sub._matter._tcp.local PTR instance
        let subtypePTR = Wire.record(
            Wire.labels("_I2906C908D115D362", "_sub") + Wire.pointer(12), type: Wire.typePTR, ttl: 4500,
            data: Wire.pointer(42))
        let srv = Wire.record(
            Wire.pointer(42), type: Wire.typeSRV, class: Wire.classINFlush, ttl: 120,
            data: Wire.u16(0) + Wire.u16(0) + Wire.u16(5540) + Wire.labels("B75AFB458ECD7E8E") + Wire.pointer(25))
        let txt = Wire.record(
            Wire.pointer(42), type: Wire.typeTXT, class: Wire.classINFlush, ttl: 4500,
            data: Wire.txt("SII=5000", "SAI=300", "SAT=4000", "T=0"))
        let aaaa = Wire.record(
            Wire.labels("B75AFB458ECD7E8E") + Wire.pointer(25), type: Wire.typeAAAA, class: Wire.classINFlush, ttl: 120,
            data: [0xFD, 0x00, 0, 0, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x42])
        return header + ptr + subtypePTR + srv + txt + aaaa
    }()

    @Test func readsTheFabricAndNodeOfACommissionedNode() throws {
        let message = try discovery(announcement)
        #expect(message.diagnostics.isEmpty)
        let node = try #require(message.services.first)
        #expect(node.offset == 12)
        let matter = try #require(node.matter)
        #expect(matter.role == .operational)
        #expect(matter.compressedFabricID == 0x2906_C908_D115_D362)
        #expect(matter.nodeID == 0x8FC7_7724_01CD_0696)
        #expect(matter.subtypes == [.compressedFabricID(0x2906_C908_D115_D362)])
        #expect(matter.txt?.sessionIdleInterval == 5000)
        #expect(matter.txt?.tcpSupport == [])
        #expect(matter.allDiagnostics.isEmpty)
        #expect(node.addresses.map(\.address.description) == ["fd00:0:0:1::42"])
    }
}
