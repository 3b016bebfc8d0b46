import HAPCore
import HAPEvents
import HAPModel
import TLV8
import Testing
import TestSupport

@Suite struct CaptureModelTests {
    private func model(_ capture: String) throws -> CaptureModel {
        let model = CaptureModel()
        for event in try RecordedAnalysis(capture).events { model.consume(event) }
        return model
    }

    @Test("A database without values (Bluetooth LE, CoAP) names its accessory by the Name a controller read from it")
    func nameReadFromAccessoryInformation() throws {
        #expect(try model("ble/lamp").accessories.first?.name == "hapscope BLE Lamp")
        // Over CoAP the read Name comes before the mDNS instance name, as a database's does over IP.
        let thread = try #require(try model("coap/clean").accessories.first)
        #expect(thread.instanceName == "hapscope Thread Light 4D5E6F")
        #expect(thread.name == "hapscope Thread Light")
    }

    @Test func theBridgeCaptureShowsOneAccessoryItsDatabaseAndItsActivity() throws {
        let model = try model("bridge")
        #expect(model.accessories.count == 1)
        let bridge = try #require(model.accessories.first)
        #expect(bridge.deviceID == "1A:2B:3C:4D:5E:6F")
        #expect(bridge.categoryName == "Bridge")
        #expect(bridge.database?.accessories.count == 6)
        #expect(bridge.name == bridge.database?.accessories.first?.name)
        #expect(bridge.connectionIDs == [1, 2])
        #expect(bridge.characteristics.values.contains { $0.events > 0 && $0.name == "Current Temperature" })
        #expect(model.connections.count == 2)
        #expect(model.counts.decryptedSessions == 1)
        #expect(model.counts.pairingExchanges[.pairSetup]?.succeeded == 1)
        #expect(model.counts.pairingExchanges[.pairVerify]?.succeeded == 1)
        #expect(model.summary?.hapConnections == 2)
    }

    @Test func theWrongCodeCaptureCountsOneFailedAndOneSuccessfulPairSetup() throws {
        let model = try model("wrong-code")
        let tally = model.counts.pairingExchanges[.pairSetup]
        #expect(tally?.failed == 1)
        #expect(tally?.succeeded == 1)
        let failed = try #require(model.exchanges.first { !$0.succeeded })
        #expect(failed.outcome == .failed(state: .m4, error: .authentication, retryDelay: nil))
    }

    @Test func everyConnectionOfTheMultiConnectionCaptureIsTiedToTheAccessory() throws {
        let model = try model("multi-connection")
        #expect(model.connections.count == 4)
        #expect(model.connections.allSatisfy { $0.deviceID == "1A:2B:3C:4D:5E:6F" })
    }

    @Test func retentionIsBoundedAndCountsWhatWasLeftOut() throws {
        let model = CaptureModel(retentionLimit: 1)
        for event in try RecordedAnalysis("multi-connection").events { model.consume(event) }
        #expect(model.connections.count == 1)
        #expect(model.counts.droppedConnections == 3)
    }
}
