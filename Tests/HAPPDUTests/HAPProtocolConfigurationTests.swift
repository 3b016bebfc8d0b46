import Testing
import WireParsing
@testable import HAPPDU

@Suite("HAP-Protocol-Configuration bodies")
struct HAPProtocolConfigurationTests {
    func request(_ bytes: [UInt8]) -> Result<HAPProtocolConfigurationRequest, DecodeError> {
        decode(bytes) { (cursor) throws(DecodeError) in try HAPProtocolConfigurationRequest(parsing: &cursor) }
    }

    func response(_ bytes: [UInt8]) -> Result<HAPProtocolConfigurationResponse, DecodeError> {
        decode(bytes) { (cursor) throws(DecodeError) in try HAPProtocolConfigurationResponse(parsing: &cursor) }
    }

    @Test("aiohomekit 4.0.1's two requests: Generate-Broadcast-Encryption-Key (01 00) and Get-All-Params (02 00)")
    func requests() throws {
        #expect(try request(hex("0100")).get() == HAPProtocolConfigurationRequest(generatesBroadcastKey: true))
        #expect(try request(hex("0200")).get() == HAPProtocolConfigurationRequest(getsAllParameters: true))
        let both = try request(hex("0100 0200 0306 1a2b3c4d5e6f")).get()
        #expect(both == HAPProtocolConfigurationRequest(
            generatesBroadcastKey: true, getsAllParameters: true, advertisingIdentifier: hex("1a2b3c4d5e6f")))
        #expect(try request([]).get() == HAPProtocolConfigurationRequest())
    }

    @Test("A Get-All-Params answer as captures/ble/lamp carries it: GSN 3, c# 1, advertising ID and the key (not kept)")
    func getAllAnswer() throws {
        let key = [UInt8](repeating: 0x7F, count: 32)
        let answer = try response(hex("01020300 020101 03061a2b3c4d5e6f") + tlv(0x04, key)).get()
        #expect(answer == HAPProtocolConfigurationResponse(
            currentStateNumber: 3, currentConfigurationNumber: 1, advertisingIdentifier: hex("1a2b3c4d5e6f"), carriesBroadcastKey: true))
        let withoutKey = try response(hex("01020100 020101 03061a2b3c4d5e6f")).get()
        #expect(withoutKey.currentStateNumber == 1 && !withoutKey.carriesBroadcastKey)
        #expect(try response([]).get() == HAPProtocolConfigurationResponse())
    }

    @Test("Fields of the wrong size are malformed, at the item's offset (HomeKitADK answers Invalid Data)")
    func wrongSizes() {
        #expect(request(hex("010101")).error?.code == .malformed)
        #expect(request(hex("0200 020101")).error?.offset == 2)
        #expect(request(hex("0305 1a2b3c4d5e")).error?.code == .malformed)
        #expect(response(hex("010103")).error?.code == .malformed)
        #expect(response(hex("0102 0300 02020101")).error?.offset == 4)
        #expect(response(tlv(0x04, [1, 2, 3])).error?.code == .malformed)
        #expect(response(hex("0105")).error?.code == .truncated)
    }
}
