import Testing
@testable import DNS

private func hapTXT(_ strings: String..., transport: ServiceType.Transport = .tcp) throws -> HAPServiceTXT {
    let text = try #require(DNSTextStrings(strings: strings.map { Array($0.utf8) }))
    return HAPServiceTXT(ServiceTXT(text), transport: transport)
}

/// The TXT keys of the HAP announcement fixture.
private let wellFormed = ["c#=2", "ff=0", "id=E1:91:1A:70:85:AA", "md=Lamp1,1", "pv=1.1", "s#=1", "sf=1", "ci=5", "sh=yf4bzw=="]

@Suite struct HAPServiceTXTTests {
    @Test func decodesEveryKeyOfAWellFormedRecord() throws {
        let text = try #require(DNSTextStrings(strings: wellFormed.map { Array($0.utf8) }))
        let hap = HAPServiceTXT(ServiceTXT(text))
        #expect(hap.configurationNumber == 2)
        #expect(hap.featureFlags == [])
        #expect(hap.deviceID == "E1:91:1A:70:85:AA")
        #expect(hap.model == "Lamp1,1")
        #expect(hap.protocolVersion == HAPProtocolVersion(major: 1, minor: 1))
        #expect(hap.stateNumber == 1)
        #expect(hap.statusFlags == .notPaired)
        #expect(hap.categoryIdentifier == 5)
        #expect(hap.categoryName == "Lightbulb")
        #expect(hap.setupHash == [0xC9, 0xFE, 0x1B, 0xCF])
        #expect(hap.diagnostics.isEmpty)
    }

    @Test func explainsEachKeyInOneLine() throws {
        let text = try #require(DNSTextStrings(strings: wellFormed.map { Array($0.utf8) }))
        let fields = HAPServiceTXT(ServiceTXT(text)).fields
        #expect(fields.map(\.key) == ["c#", "ff", "id", "md", "pv", "s#", "sf", "ci", "sh"])
        #expect(fields.allSatisfy { !$0.explanation.isEmpty && !$0.explanation.contains("\n") })
        #expect(fields[1].explanation == "pairing feature flags 0x0: setup code only, no MFi authentication")
        #expect(fields[6].explanation == "status flags 0x1: not paired, accepting pair-setup")
        #expect(fields[7].description == "ci=5: accessory category 5: Lightbulb")
        #expect(fields[8].explanation.hasPrefix("setup hash c9fe1bcf: "))
    }

    @Test func namesEveryFeatureAndStatusBit() throws {
        let hap = try hapTXT("ff=3", "sf=6")
        #expect(hap.featureFlags == [.appleAuthenticationCoprocessor, .softwareAuthentication])
        #expect(hap.statusFlags == [.wiFiNotConfigured, .problemDetected])
        #expect(hap.fields[0].explanation.contains("Apple Authentication Coprocessor"))
        #expect(hap.fields[1].explanation.contains("not configured to join Wi-Fi; problem detected"))
        #expect(try hapTXT("sf=0").fields[0].explanation.contains("paired, no problem reported"))
    }

    @Test func reportsEveryMissingRequiredKey() throws {
        let hap = try hapTXT("md=Lamp")
        let missing = hap.diagnostics.compactMap { diagnostic -> String? in
            if case .missingKey(let key) = diagnostic.kind { return key } else { return nil }
        }
        #expect(missing == ["c#", "ff", "id", "pv", "s#", "sf", "ci"])
        #expect(hap.diagnostics.allSatisfy { $0.offset == nil })
    }

    @Test func reportsUndefinedFlagBits() throws {
        let hap = try hapTXT("ff=5", "sf=9")
        #expect(hap.diagnostics.map(\.kind).filter { if case .missingKey = $0 { false } else { true } } == [
            .unknownFeatureFlags(4), .unknownStatusFlags(8),
        ])
        #expect(hap.featureFlags?.contains(.appleAuthenticationCoprocessor) == true)
    }

    @Test func reportsAConfigurationNumberOutsideItsRange() throws {
        #expect(try hapTXT("c#=0").diagnostics.map(\.kind).contains(.configurationNumberOutOfRange(0)))
        #expect(try hapTXT("c#=65536").diagnostics.map(\.kind).contains(.configurationNumberOutOfRange(65536)))
        #expect(!(try hapTXT("c#=65535").diagnostics.map(\.kind).contains(.configurationNumberOutOfRange(65535))))
    }

    @Test func reportsValuesThatAreNotDecimal() throws {
        let hap = try hapTXT("c#=0x10", "ci=")
        #expect(hap.configurationNumber == nil)
        #expect(hap.diagnostics.map(\.kind).contains(.notDecimal(key: "c#", value: "0x10")))
        #expect(hap.diagnostics.map(\.kind).contains(.missingValue("ci")))
    }

    @Test func checksTheDeviceIDLooksLikeAMACAddress() throws {
        #expect(try hapTXT("id=E1:91:1A:70:85").diagnostics.map(\.kind).contains(.deviceIDNotMACLike("E1:91:1A:70:85")))
        #expect(try hapTXT("id=E1-91-1A-70-85-AA").diagnostics.map(\.kind).contains(.deviceIDNotMACLike("E1-91-1A-70-85-AA")))
        #expect(try hapTXT("id=G1:91:1A:70:85:AA").diagnostics.map(\.kind).contains(.deviceIDNotMACLike("G1:91:1A:70:85:AA")))
        let lower = try hapTXT("id=e1:91:1a:70:85:aa")
        #expect(lower.deviceID == "e1:91:1a:70:85:aa")
        #expect(lower.diagnostics.map(\.kind).contains(.deviceIDNotUpperCase("e1:91:1a:70:85:aa")))
    }

    @Test func checksTheProtocolVersionFormat() throws {
        #expect(try hapTXT("pv=1.0").protocolVersion == HAPProtocolVersion(major: 1, minor: 0))
        for bad in ["1", "1.", "v1.1", "1.1.0"] {
            let hap = try hapTXT("pv=" + bad)
            #expect(hap.protocolVersion == nil)
            #expect(hap.diagnostics.map(\.kind).contains(.protocolVersionMalformed(bad)))
        }
        #expect(try hapTXT("c#=1").diagnostics.map(\.description).contains("no pv key: controllers assume protocol version 1.0"))
    }

    @Test func namesTheCategoryFromTheCatalogAndReportsUnknownOnes() throws {
        #expect(try hapTXT("ci=2").categoryName == "Bridge")
        let unknown = try hapTXT("ci=99")
        #expect(unknown.categoryIdentifier == 99)
        #expect(unknown.categoryName == nil)
        #expect(unknown.diagnostics.map(\.kind).contains(.unknownCategory(99)))
    }

    @Test func decodesTheSetupHashAndRejectsOtherLengths() throws {
        for bad in ["yf4b", "yf4bzw", "yf4bzw8=", "!!!!!!=="] {
            let hap = try hapTXT("sh=" + bad)
            #expect(hap.setupHash == nil)
            #expect(hap.diagnostics.map(\.kind).contains(.setupHashMalformed(bad)))
        }
    }

    @Test func expectsStateNumberOneOnlyOverTCP() throws {
        #expect(try hapTXT("s#=2").diagnostics.map(\.kind).contains(.unexpectedStateNumber(2)))
        #expect(!(try hapTXT("s#=2", transport: .udp).diagnostics.map(\.kind).contains(.unexpectedStateNumber(2))))
    }

    @Test func readsKeysIgnoringCaseAndReportsUnknownOnes() throws {
        let hap = try hapTXT("C#=4", "vendor=acme")
        #expect(hap.configurationNumber == 4)
        #expect(hap.diagnostics.map(\.kind).contains(.unknownKey("vendor")))
        #expect(hap.fields.last?.explanation == "not a HAP key")
    }

    @Test func pointsDiagnosticsAtTheOffendingString() throws {
        let text = try #require(DNSTextStrings(strings: [Array("c#=2".utf8), Array("ci=99".utf8)]))
        let hap = HAPServiceTXT(ServiceTXT(text, dataOffset: 107))
        #expect(hap.diagnostics.first { $0.kind == .unknownCategory(99) }?.offset == 112)
    }
}
