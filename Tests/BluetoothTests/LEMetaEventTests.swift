import Testing
import WireParsing
@testable import Bluetooth

@Suite("LE Meta events")
struct LEMetaEventTests {
    func meta(_ parameters: [UInt8]) -> Result<HCIEvent, DecodeError> {
        decode([0x3E, UInt8(parameters.count)] + parameters, layer: .hci) { (cursor) throws(DecodeError) in try HCIEvent(parsing: &cursor) }
    }

    func content(_ parameters: [UInt8]) throws -> LEMetaEvent {
        guard case .leMeta(let meta) = try meta(parameters).get().content else { throw DecodeError(.malformed, layer: .hci, offset: 0, expected: "LE Meta") }
        return meta
    }

    @Test("LE Connection Complete from Bumble: handle 1, central, random peer, 15 ms interval, 720 ms timeout")
    func connectionComplete() throws {
        let decoded = decode(hciPacket(BumbleVectors.leConnectionComplete), layer: .hci) { (cursor) throws(DecodeError) in
            try HCIEvent(parsing: &cursor)
        }
        guard case .leMeta(.connectionComplete(let complete))? = decoded.value?.content else {
            Issue.record("\(decoded)")
            return
        }
        #expect(complete.version == .legacy && complete.status == .success && complete.handle == 1 && complete.isCentral)
        #expect(complete.peerAddressType == .randomDevice)
        #expect(complete.peerAddress.description == "F0:F1:F2:F3:F4:F6")
        #expect(complete.connectionInterval == 12 && complete.supervisionTimeout == 0x48)
        #expect(complete.localResolvablePrivateAddress == nil && complete.advertisingHandle == nil)
    }

    @Test("Enhanced Connection Complete v1 adds the two private addresses, v2 the advertising and sync handles")
    func enhancedConnectionComplete() throws {
        let common = hex("00 4000 01 00 665544332211")
        let rpas = hex("a1a2a3a4a5a6 b1b2b3b4b5b6")
        let timing = hex("1800 0000 c800 00")
        guard case .connectionComplete(let v1) = try content([0x0A] + common + rpas + timing) else { throw DecodeError(.malformed, layer: .hci, offset: 0, expected: "") }
        #expect(v1.version == .enhanced && !v1.isCentral && v1.peerAddress.description == "11:22:33:44:55:66")
        #expect(v1.localResolvablePrivateAddress?.description == "A6:A5:A4:A3:A2:A1")
        #expect(v1.connectionInterval == 0x18 && v1.supervisionTimeout == 200)
        guard case .connectionComplete(let v2) = try content([0x29] + common + rpas + timing + hex("03 ffff")) else { throw DecodeError(.malformed, layer: .hci, offset: 0, expected: "") }
        #expect(v2.version == .enhancedV2 && v2.advertisingHandle == 3 && v2.syncHandle == 0xFFFF)
    }

    @Test("LE Advertising Report: reports one after another, data parsed as AD structures")
    func advertisingReport() throws {
        let data = hex("020106 0dff4c00060d01a1a2a3a4a5a60700")
        let report = hex("00 01 665544332211") + [UInt8(data.count)] + data + [0xC4]
        let scanResponse = hex("04 01 665544332211 06 05094c616d70 c0")
        guard case .advertisingReports(let reports) = try content([0x02, 0x02] + report + scanResponse) else { throw DecodeError(.malformed, layer: .hci, offset: 0, expected: "") }
        #expect(reports.count == 2)
        #expect(reports[0].rssi == -60 && !reports[0].isScanResponse && reports[0].data.flags == 6)
        #expect(reports[0].data.manufacturerData.first?.companyID == 0x004C)
        #expect(reports[1].isScanResponse && reports[1].data.localName?.name == "Lamp")
    }

    @Test("An advertising report count beyond the bytes present is refused before reading")
    func advertisingReportCount() {
        #expect(meta(hex("02 ff 00")).error?.code == .malformed)
    }

    @Test("LE Extended Advertising Report: the 24-byte fixed part, the data status bits, the data")
    func extendedAdvertisingReport() throws {
        let report = hex("1b00 00 665544332211 01 00 ff 7f c8 0000 ff 000000000000 03 020106")
        guard case .extendedAdvertisingReports(let reports) = try content([0x0D, 0x01] + report) else { throw DecodeError(.malformed, layer: .hci, offset: 0, expected: "") }
        #expect(reports.count == 1)
        #expect(reports[0].eventType == 0x1B && reports[0].dataStatus == 0 && reports[0].isScanResponse)
        #expect(reports[0].rssi == -56 && reports[0].txPower == 127 && reports[0].data.flags == 6)
    }

    @Test("An extended advertising report from Bumble carries the HomeKit manufacturer data whole")
    func bumbleExtendedReport() throws {
        let decoded = decode(hciPacket(BumbleVectors.extendedAdvertisingReport), layer: .hci) { (cursor) throws(DecodeError) in
            try HCIEvent(parsing: &cursor)
        }
        guard case .leMeta(.extendedAdvertisingReports(let reports))? = decoded.value?.content else {
            Issue.record("\(decoded)")
            return
        }
        #expect(reports.count == 1 && reports[0].address.description == "F0:F1:F2:F3:F4:F6" && reports[0].rssi == -50)
        #expect(reports[0].data.structures.map(\.type) == [.flags, .manufacturerSpecificData, .completeLocalName])
        #expect(reports[0].data.manufacturerData.first?.data == hex("063101a1a2a3a4a5a60a0001000102c0ffee00"))
        #expect(reports[0].data.problem == nil)
    }

    @Test("LE Connection Update Complete and LE Data Length Change")
    func updateAndDataLength() throws {
        guard case .connectionUpdateComplete(let update) = try content(hex("03 00 4000 0600 0000 f401")) else { throw DecodeError(.malformed, layer: .hci, offset: 0, expected: "") }
        #expect(update.handle == 0x40 && update.connectionInterval == 6 && update.supervisionTimeout == 500)
        guard case .dataLengthChange(let change) = try content(hex("07 4000 fb00 4808 fb00 4808")) else { throw DecodeError(.malformed, layer: .hci, offset: 0, expected: "") }
        #expect(change.maximumTransmitOctets == 251 && change.maximumReceiveTime == 2120)
    }

    @Test("An unknown subevent keeps its code")
    func unknownSubevent() throws {
        #expect(try content(hex("14 00")) == .other(subevent: 0x14))
    }
}
