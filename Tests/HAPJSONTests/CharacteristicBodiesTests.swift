import HAPCatalog
import Testing
import WireParsing
@testable import HAPJSON

private func body<Body: HAPJSONBody>(_ type: Body.Type, _ text: String) throws(DecodeError) -> Body {
    try Body(bytes: Array(text.utf8))
}

private func failure<Body: HAPJSONBody>(_ type: Body.Type, _ text: String) -> DecodeError? {
    do {
        _ = try body(type, text)
        return nil
    } catch {
        return error
    }
}

@Suite struct CharacteristicBodiesTests {
    // MARK: GET /characteristics

    @Test func aReadResponseCarriesValuesAndAskedForMetadata() throws {
        let response = try body(CharacteristicReadResponse.self, #"""
        {"characteristics":[
          {"aid":1,"iid":9,"value":1},
          {"aid":4295608971,"iid":10,"value":23.5,"type":"11","perms":["pr","ev"],"ev":1,"format":"float",
           "unit":"celsius","minValue":-270,"maxValue":100,"minStep":0.1}]}
        """#)
        #expect(response.diagnostics.isEmpty)
        #expect(response.entries.map(\.id) == [CharacteristicID(aid: 1, iid: 9), CharacteristicID(aid: 4_295_608_971, iid: 10)])
        let temperature = response.entries[1]
        #expect(temperature.value == .number(JSONNumber(23.5)!))
        #expect(temperature.status == nil)
        #expect(temperature.type == HAPUUID(appleDefined: 0x11))
        #expect(temperature.permissions == [.pairedRead, .events])
        #expect(temperature.eventsEnabled == true)
        #expect(temperature.format == .float)
        #expect(temperature.unit == .celsius)
        #expect(temperature.minimumValue?.text == "-270")
        #expect(temperature.metadata.minimumStep?.doubleValue == 0.1)
    }

    @Test func aMultiStatusReadNeedsAStatusOnEveryEntry() throws {
        let response = try body(CharacteristicReadResponse.self, #"""
        {"characteristics":[{"aid":1,"iid":9,"status":0,"value":true},{"aid":1,"iid":10,"value":5},{"aid":1,"iid":11,"status":-70409}]}
        """#)
        #expect(response.entries.map(\.status) == [.success, nil, .resourceDoesNotExist])
        #expect(response.diagnostics.map(\.code) == [.missingStatus])
        #expect(response.diagnostics.first?.path == "/characteristics/1")
        #expect(response.diagnostics.first?.iid == 10)
    }

    @Test func positiveStatusCodesAreNormalisedWithANote() throws {
        let response = try body(CharacteristicReadResponse.self, #"{"characteristics":[{"aid":1,"iid":9,"status":70402}]}"#)
        #expect(response.entries.first?.status == .unableToCommunicate)
        #expect(response.diagnostics.map(\.code) == [.positiveStatus])
        #expect(response.diagnostics.first?.severity == .note)
        #expect(response.diagnostics.first?.path == "/characteristics/0/status")
        #expect(response.diagnostics.first?.offset == 46)
    }

    @Test func entriesWithoutAnAddressAreSkippedAndReported() throws {
        let response = try body(CharacteristicReadResponse.self, #"{"characteristics":[{"aid":1},{"aid":0,"iid":1},7,{"aid":2,"iid":3,"value":null,"x":1}]}"#)
        #expect(response.entries.map(\.id) == [CharacteristicID(aid: 2, iid: 3)])
        #expect(response.entries.first?.value == .null)
        #expect(response.diagnostics.map(\.code) == [.malformedEntry, .malformedEntry, .malformedEntry, .nonHAPKey])
        #expect(response.diagnostics.map(\.offset) == [20, 30, 48, 80])
    }

    @Test func aBodyWithoutACharacteristicsArrayThrows() {
        #expect(failure(CharacteristicReadResponse.self, #"{"status":-70401}"#) == DecodeError(.malformed, layer: .hapJSON, offset: 0, expected: ""))
        #expect(failure(CharacteristicEvent.self, #"{"characteristics":{}}"#)?.offset == 19)
        #expect(failure(CharacteristicWriteRequest.self, "[]")?.layer == .hapJSON)
        #expect(failure(CharacteristicEvent.self, #"{"characteristics":[}"#)?.layer == .json)
    }

    // MARK: EVENT/1.0

    @Test func anEventCarriesNewValuesThatTheDatabaseTypes() throws {
        let event = try body(CharacteristicEvent.self, #"{"characteristics":[{"aid":1,"iid":10,"value":21.5},{"aid":1,"iid":9,"value":0}]}"#)
        #expect(event.entries.count == 2)
        let database = try database(#"""
        [{"aid":1,"services":[{"iid":8,"type":"4A","characteristics":[
          {"iid":9,"type":"25","perms":["pr","ev"],"format":"bool","value":true},
          {"iid":10,"type":"11","perms":["pr","ev"],"format":"float","minValue":0,"maxValue":100,"minStep":0.1,"value":20}]}]}]
        """#)
        let typed = event.entries.compactMap { entry in entry.value.flatMap { database.characteristic(entry.id)?.interpret($0) } }
        #expect(typed == [InterpretedValue(value: .float(21.5)), InterpretedValue(value: .bool(false))])
    }

    // MARK: PUT /characteristics

    @Test func aWriteRequestCarriesValuesSubscriptionsAndTheTimedWriteID() throws {
        let request = try body(CharacteristicWriteRequest.self, #"""
        {"characteristics":[
          {"aid":1,"iid":9,"value":true,"r":true,"remote":1,"authData":"AQID"},
          {"aid":1,"iid":10,"ev":0},
          {"aid":1,"iid":11}],
         "pid":11122333}
        """#)
        #expect(request.pid == 11_122_333)
        #expect(request.entries.count == 3)
        let write = request.entries[0]
        #expect(write.value == .bool(true))
        #expect(write.requestsWriteResponse == true)
        #expect(write.isRemote == true)
        #expect(write.authorizationData == [1, 2, 3])
        #expect(request.entries[1].eventsEnabled == false)
        #expect(request.entries[1].value == nil)
        #expect(request.diagnostics.map(\.code) == [.missingField])
        #expect(request.diagnostics.first?.path == "/characteristics/2")
    }

    @Test func unusableWriteFieldsAreIgnoredWithAWarning() throws {
        let request = try body(CharacteristicWriteRequest.self, #"{"characteristics":[{"aid":1,"iid":9,"value":1,"ev":"yes","authData":"*"}],"pid":-1}"#)
        #expect(request.entries.first?.eventsEnabled == nil)
        #expect(request.entries.first?.authorizationData == nil)
        #expect(request.pid == nil)
        #expect(request.diagnostics.map(\.code) == [.invalidField, .invalidField, .invalidField])
        #expect(request.diagnostics.map(\.path) == ["/characteristics/0/ev", "/characteristics/0/authData", "/pid"])
    }

    @Test func aWriteResponseNeedsAStatusOnEveryEntry() throws {
        let response = try body(CharacteristicWriteResponse.self, #"{"characteristics":[{"aid":1,"iid":9,"status":0,"value":1},{"aid":1,"iid":10}]}"#)
        #expect(response.entries.map(\.status) == [.success, nil])
        #expect(response.entries.first?.value == .number(JSONNumber(1)))
        #expect(response.diagnostics.map(\.code) == [.missingStatus])
    }

    // MARK: PUT /prepare and status bodies

    @Test func aPrepareRequestCarriesItsTimeToLiveAndID() throws {
        let prepare = try body(PrepareRequest.self, #"{"ttl":2500,"pid":18446744073709551615}"#)
        #expect(prepare.timeToLive == 2500)
        #expect(prepare.pid == .max)
        #expect(prepare.diagnostics.isEmpty)
        #expect(failure(PrepareRequest.self, #"{"ttl":2500}"#)?.offset == 0)
        #expect(failure(PrepareRequest.self, #"{"ttl":-1,"pid":1}"#)?.offset == 7)
        #expect(failure(PrepareRequest.self, "[]")?.layer == .hapJSON)
    }

    @Test func statusBodiesNameTheirCode() throws {
        let ok = try body(StatusResponse.self, #"{"status":0}"#)
        #expect(ok.status.isSuccess)
        let denied = try body(StatusResponse.self, #"{"status":-70401}"#)
        #expect(denied.status == .insufficientPrivileges)
        #expect(denied.status.description == "-70401 (insufficient privileges)")
        let unsigned = try body(StatusResponse.self, #"{"status":70411,"extra":1}"#)
        #expect(unsigned.status == .insufficientAuthorization)
        #expect(unsigned.diagnostics.map(\.code) == [.positiveStatus, .nonHAPKey])
        #expect(failure(StatusResponse.self, #"{"status":"0"}"#)?.offset == 10)
    }

    @Test func everyHAPStatusCodeHasAName() {
        let codes: [HAPStatus] = [
            .success, .insufficientPrivileges, .unableToCommunicate, .resourceBusy, .readOnlyCharacteristic,
            .writeOnlyCharacteristic, .notificationNotSupported, .outOfResources, .operationTimedOut,
            .resourceDoesNotExist, .invalidValue, .insufficientAuthorization, .notAllowedInCurrentState,
        ]
        #expect(codes.map(\.rawValue) == [0] + (70401 ... 70412).map { -Int64($0) })
        #expect(codes.allSatisfy { $0.name != nil })
        #expect(HAPStatus(rawValue: -70413).name == nil)
        #expect(HAPStatus(wireValue: -70402) == HAPStatus(wireValue: 70402))
    }
}
