import HTTP1
import Testing
import WireParsing

@Suite struct HAPRequestTargetTests {
    @Test func everyHAPEndpointIsRecognisedByItsExactPath() {
        let endpoints: [(String, HAPRequestTarget.Endpoint)] = [
            ("/accessories", .accessories), ("/characteristics", .characteristics), ("/pairings", .pairings),
            ("/pair-setup", .pairSetup), ("/pair-verify", .pairVerify), ("/prepare", .prepare),
            ("/identify", .identify), ("/resource", .resource), ("/secure-message", .secureMessage),
            ("/config", .config), ("/configured", .configured),
        ]
        for (path, endpoint) in endpoints {
            let target = HAPRequestTarget(path)
            #expect(target.endpoint == endpoint, "\(path)")
            #expect(target.path == path)
            #expect(target.query == nil)
            #expect(target.diagnostics.isEmpty)
        }
    }

    @Test func anyOtherPathIsKeptAsUnknown() {
        for path in ["/", "/Accessories", "/accessories/", "/pair-setup2", "*", "http://x/accessories"] {
            let target = HAPRequestTarget(path)
            #expect(target.endpoint == .unknown, "\(path)")
            #expect(target.path == path)
        }
    }

    @Test func aCharacteristicReadQueryBecomesTypedIDsAndFlags() throws {
        let target = HAPRequestTarget("/characteristics?id=1.10,2.3,4295608971.9&meta=1&perms=0&type=1&ev=1")
        #expect(target.endpoint == .characteristics)
        #expect(target.path == "/characteristics")
        #expect(target.query == "id=1.10,2.3,4295608971.9&meta=1&perms=0&type=1&ev=1")
        let query = try #require(target.characteristicQuery)
        #expect(query.ids == [
            HAPCharacteristicID(aid: 1, iid: 10), HAPCharacteristicID(aid: 2, iid: 3),
            HAPCharacteristicID(aid: 4_295_608_971, iid: 9),
        ])
        #expect(query.includeMetadata == true)
        #expect(query.includePermissions == false)
        #expect(query.includeType == true)
        #expect(query.includeEventState == true)
        #expect(target.diagnostics.isEmpty)
    }

    @Test func absentFlagsStayUnset() throws {
        let query = try #require(HAPRequestTarget("/characteristics?id=1.9").characteristicQuery)
        #expect(query == HAPCharacteristicQuery(ids: [HAPCharacteristicID(aid: 1, iid: 9)]))
    }

    @Test func textualFlagsAreAcceptedAndNoted() throws {
        let target = HAPRequestTarget("/characteristics?id=1.9&ev=true&meta=false")
        let query = try #require(target.characteristicQuery)
        #expect(query.includeEventState == true)
        #expect(query.includeMetadata == false)
        #expect(target.diagnostics == [
            HAPRequestTargetDiagnostic(.textualFlagValue(name: "ev"), offset: 24),
            HAPRequestTargetDiagnostic(.textualFlagValue(name: "meta"), offset: 32),
        ])
    }

    @Test func malformedQueryPartsBecomeDiagnosticsNotFailures() throws {
        let target = HAPRequestTarget("/characteristics?id=1.x,2.3,,.5,7,1.99999999999999999999&ev=yes&meta&colour=red&ev=0")
        let query = try #require(target.characteristicQuery)
        #expect(query.ids == [HAPCharacteristicID(aid: 2, iid: 3)])
        #expect(query.includeEventState == nil)
        #expect(query.includeMetadata == nil)
        #expect(target.diagnostics == [
            HAPRequestTargetDiagnostic(.malformedCharacteristicID("1.x"), offset: 20),
            HAPRequestTargetDiagnostic(.malformedCharacteristicID(""), offset: 28),
            HAPRequestTargetDiagnostic(.malformedCharacteristicID(".5"), offset: 29),
            HAPRequestTargetDiagnostic(.malformedCharacteristicID("7"), offset: 32),
            HAPRequestTargetDiagnostic(.malformedCharacteristicID("1.99999999999999999999"), offset: 34),
            HAPRequestTargetDiagnostic(.invalidFlagValue(name: "ev", value: "yes"), offset: 57),
            HAPRequestTargetDiagnostic(.invalidFlagValue(name: "meta", value: ""), offset: 64),
            HAPRequestTargetDiagnostic(.unknownParameter("colour"), offset: 69),
            HAPRequestTargetDiagnostic(.duplicateParameter("ev"), offset: 80),
        ])
    }

    @Test func aQueryWithoutIDsIsNoted() {
        let target = HAPRequestTarget("/characteristics?ev=1")
        #expect(target.characteristicQuery?.ids == [])
        #expect(target.diagnostics == [HAPRequestTargetDiagnostic(.missingCharacteristicIDs, offset: 17)])
    }

    @Test func otherEndpointsKeepTheirQueryAsText() {
        let target = HAPRequestTarget("/accessories?x=1")
        #expect(target.endpoint == .accessories)
        #expect(target.query == "x=1")
        #expect(target.characteristicQuery == nil)
    }

    @Test func aRequestsTargetReportsDiagnosticsAtStreamOffsets() throws {
        let request = Fixtures.text("GET /characteristics?id=1.x HTTP/1.1\r\n\r\n")
        let lead = Fixtures.noContentResponse
        var target: HAPRequestTarget?
        var parser = HTTPStreamParser()
        try (lead + request).span.bytes.withUnsafeBytes { (buffer) throws(DecodeError) in
            try parser.feed(buffer) { event in
                if case .message(let message) = event, message.kind == .request { target = message.hapRequestTarget }
            }
        }
        let diagnostic = try #require(target?.diagnostics.first)
        #expect(diagnostic == HAPRequestTargetDiagnostic(.malformedCharacteristicID("1.x"), offset: lead.count + 24))
    }

    @Test func aCursorIsReadToItsEndWithItsAbsoluteOffsets() {
        let bytes = Array("xx/characteristics?id=9.9".utf8)
        var cursor = ByteCursor(bytes.span.bytes, layer: .http, baseOffset: 100, position: 2)
        let target = HAPRequestTarget(parsing: &cursor)
        let atEnd = cursor.isAtEnd
        #expect(atEnd)
        #expect(target.characteristicQuery?.ids == [HAPCharacteristicID(aid: 9, iid: 9)])
        #expect(HAPCharacteristicID(aid: 9, iid: 9).description == "9.9")
    }
}
