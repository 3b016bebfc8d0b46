import Testing
@testable import DNS

private func matterTXT(_ strings: String..., role: MatterServiceRole = .commissionable) throws -> MatterServiceTXT {
    let text = try #require(DNSTextStrings(strings: strings.map { Array($0.utf8) }))
    return MatterServiceTXT(ServiceTXT(text), role: role)
}

private func kinds(_ txt: MatterServiceTXT) -> [MatterTXTProblem] { txt.diagnostics.map(\.kind) }

@Suite struct MatterServiceTXTTests {
    @Test func decodesACommissionableRecord() throws {
        let txt = try matterTXT("D=3840", "VP=65521+32769", "CM=1", "DT=257", "DN=Test Bulb", "SII=5000", "SAI=300",
                                "SAT=4000", "T=6", "PH=33")
        #expect(txt.longDiscriminator == 3840)
        #expect(txt.vendorID == 0xFFF1)
        #expect(txt.productID == 0x8001)
        #expect(txt.commissioningMode == .basic)
        #expect(txt.deviceType == 257)
        #expect(txt.deviceName == "Test Bulb")
        #expect(txt.sessionIdleInterval == 5000)
        #expect(txt.sessionActiveInterval == 300)
        #expect(txt.sessionActiveThreshold == 4000)
        #expect(txt.tcpSupport == [.client, .server])
        #expect(txt.pairingHint == MatterPairingHint(rawValue: 33))
        #expect(txt.diagnostics.isEmpty)
    }

    @Test func explainsEachKey() throws {
        let txt = try matterTXT("D=3840", "VP=65521+32769", "PH=33", "T=0", "ICD=1")
        #expect(txt.fields[0].explanation.hasPrefix("long discriminator 3840 (short discriminator 15)"))
        #expect(txt.fields[1].explanation == "vendor ID 0xFFF1 (65521), product ID 0x8001 (32769)")
        #expect(txt.fields[2].explanation == "pairing hint 0x21: power cycle the device; follow the device manual")
        #expect(txt.fields[3].explanation == "TCP support 0x0: MRP over UDP only")
        #expect(txt.fields[4].explanation.contains("long idle time (LIT)"))
        #expect(txt.isLongIdleTimeICD == true)
    }

    @Test func readsAVendorWithoutProduct() throws {
        let txt = try matterTXT("D=1", "VP=4996")
        #expect(txt.vendorID == 4996)
        #expect(txt.productID == nil)
        #expect(txt.fields[1].explanation == "vendor ID 0x1384 (4996), no product ID")
    }

    @Test func reportsMalformedVendorProductPairs() throws {
        for bad in ["VP=+1", "VP=65536+1", "VP=1+", "VP=1+65536", "VP=a+b"] {
            let txt = try matterTXT("D=1", bad)
            #expect(txt.vendorID == nil, "\(bad)")
            #expect(kinds(txt) == [.vendorProductMalformed(String(bad.dropFirst(3)))], "\(bad)")
        }
    }

    @Test func reportsADiscriminatorOver12Bits() throws {
        let txt = try matterTXT("D=4096")
        #expect(txt.longDiscriminator == nil)
        #expect(kinds(txt) == [.outOfRange(key: "D", value: 4096, maximum: 4095)])
    }

    @Test func reportsTheMissingDiscriminatorOfACommissionableNode() throws {
        #expect(kinds(try matterTXT("CM=1")) == [.missingKey("D")])
        #expect(kinds(try matterTXT("VP=1", role: .commissioner)).isEmpty)
    }

    @Test func reportsLeadingZerosTheSDKWouldReadAsZero() throws {
        let txt = try matterTXT("D=0840", "VP=0065521")
        #expect(kinds(txt) == [.leadingZeros(key: "D", value: "0840"), .leadingZeros(key: "VP", value: "0065521")])
    }

    @Test func reportsUndefinedCommissioningModesAndBooleans() throws {
        let txt = try matterTXT("D=1", "CM=3", "ICD=2")
        #expect(txt.commissioningMode == nil)
        #expect(txt.isLongIdleTimeICD == nil)
        #expect(kinds(txt) == [.unknownValue(key: "CM", value: "3"), .unknownValue(key: "ICD", value: "2")])
    }

    @Test func capsMRPIntervalsAtOneHourAndTheThresholdAt16Bits() throws {
        let txt = try matterTXT("SII=3600001", "SAI=3600000", "SAT=65536", role: .operational)
        #expect(txt.sessionIdleInterval == nil)
        #expect(txt.sessionActiveInterval == 3_600_000)
        #expect(kinds(txt) == [
            .outOfRange(key: "SII", value: 3_600_001, maximum: 3_600_000), .outOfRange(key: "SAT", value: 65536, maximum: 65535),
        ])
    }

    @Test func reportsUndefinedBitmapBits() throws {
        let txt = try matterTXT("D=1", "T=1", "PH=1048576", "JF=16")
        #expect(kinds(txt) == [
            .unknownBits(key: "T", bits: 1), .unknownBits(key: "PH", bits: 1 << 20), .unknownBits(key: "JF", bits: 16),
        ])
    }

    @Test func namesTheJointFabricBits() throws {
        let txt = try matterTXT("D=1", "JF=14")
        #expect(txt.jointFabricMode == [.administrator, .anchor, .datastore])
        #expect(txt.fields[1].explanation
            == "joint fabric mode 0xe: Joint Fabric Administrator; anchor administrator; holds the Joint Fabric Datastore")
    }

    @Test func asksForAPairingInstructionWhenTheHintNeedsOne() throws {
        // Bit 8: press the reset button for N seconds.
        let missing = try matterTXT("D=1", "PH=256")
        #expect(kinds(missing) == [.pairingInstructionMissing(hint: 256)])
        #expect(missing.diagnostics.first?.offset == 4)
        let present = try matterTXT("D=1", "PH=256", "PI=10")
        #expect(present.diagnostics.isEmpty)
        #expect(present.pairingInstruction == "10")
    }

    @Test func checksLengthsAgainstTheSDKMaxima() throws {
        let name = String(repeating: "n", count: 33)
        let txt = try matterTXT("D=1", "DN=" + name, "RI=0A0B", "PI=" + String(repeating: "p", count: 129))
        #expect(txt.deviceName == name)
        #expect(txt.rotatingID == [0x0A, 0x0B])
        #expect(kinds(txt) == [
            .valueTooLong(key: "DN", length: 33, maximum: 32), .valueTooLong(key: "PI", length: 129, maximum: 128),
        ])
        #expect(kinds(try matterTXT("D=1", "RI=XYZ")) == [.rotatingIDNotHex("XYZ")])
    }

    @Test func reportsCommissioningKeysInAnOperationalRecord() throws {
        let txt = try matterTXT("SII=5000", "D=1", "x=1", role: .operational)
        #expect(kinds(txt) == [.keyNotForRole(key: "D", role: .operational), .unknownKey("x")])
    }

    @Test func readsKeysIgnoringCase() throws {
        let txt = try matterTXT("d=12", "vp=1+2")
        #expect(txt.longDiscriminator == 12)
        #expect(txt.productID == 2)
    }
}

@Suite struct MatterSubtypeTests {
    @Test func readsEachSubtypeTheSDKWrites() {
        #expect(MatterSubtype(label: Array("_L3840".utf8)) == .longDiscriminator(3840))
        #expect(MatterSubtype(label: Array("_S15".utf8)) == .shortDiscriminator(15))
        #expect(MatterSubtype(label: Array("_V65521".utf8)) == .vendor(65521))
        #expect(MatterSubtype(label: Array("_T257".utf8)) == .deviceType(257))
        #expect(MatterSubtype(label: Array("_CM".utf8)) == .commissioningMode)
        #expect(MatterSubtype(label: Array("_I2906C908D115D362".utf8)) == .compressedFabricID(0x2906_C908_D115_D362))
    }

    @Test func keepsOutOfRangeAndUnknownLabelsAsOther() {
        #expect(MatterSubtype(label: Array("_L4096".utf8)) == .other("_L4096"))
        #expect(MatterSubtype(label: Array("_S16".utf8)) == .other("_S16"))
        #expect(MatterSubtype(label: Array("_L0840".utf8)) == .other("_L0840"))
        #expect(MatterSubtype(label: Array("_printer".utf8)) == .other("_printer"))
    }
}

@Suite struct MatterAdvertisementTests {
    private func instance(_ label: String, _ type: String) throws -> ServiceInstanceName {
        try #require(ServiceInstanceName(try dnsName(label + "." + type)))
    }

    @Test func readsTheFabricAndNodeFromAnOperationalInstanceName() throws {
        let advertisement = MatterAdvertisement(
            instance: try instance("2906C908D115D362-8FC7772401CD0696", "_matter._tcp.local"), role: .operational,
            nameOffset: 12, pointers: [], txt: nil)
        #expect(advertisement.compressedFabricID == 0x2906_C908_D115_D362)
        #expect(advertisement.nodeID == 0x8FC7_7724_01CD_0696)
        #expect(advertisement.diagnostics.isEmpty)
    }

    @Test func reportsAnOperationalInstanceNameOfTheWrongShape() throws {
        for bad in ["2906C908D115D362_8FC7772401CD0696", "2906C908D115D362-8FC7772401CD069", "Kitchen"] {
            let advertisement = MatterAdvertisement(
                instance: try instance(bad, "_matter._tcp.local"), role: .operational, nameOffset: 12, pointers: [], txt: nil)
            #expect(advertisement.nodeID == nil)
            #expect(advertisement.diagnostics == [MatterDiagnostic(offset: 12, kind: .operationalInstanceNameMalformed(bad))])
        }
    }
}
