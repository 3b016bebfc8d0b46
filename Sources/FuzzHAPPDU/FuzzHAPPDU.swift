import FuzzSupport
import HAPPDU
import WireParsing

/// Fuzz target: HAP PDUs as HAP-BLE and HAP over CoAP carry them, their reassembly and bodies.
///
/// Input: a mode byte, then the bytes for that mode:
/// - 0: GATT values, each a length byte and that many bytes, fed one PDU or fragment each to
///   `PDUReassembler`;
/// - 1: one CoAP payload of concatenated PDUs;
/// - 2, 3, 4: a characteristic signature, service signature, CoAP database body;
/// - 5: Apple manufacturer data (a HomeKit advertisement);
/// - 6: a read, write or Protocol Configuration body (`HAPPDUParameters`,
///   `HAPProtocolConfigurationRequest` and `…Response`, each from the same bytes);
/// - 7: a decrypted CoAP event payload.
///
/// Besides not crashing, the codec must keep these promises: a PDU read from one value
/// encodes back to exactly those bytes; a PDU the reassembler completes has its whole
/// announced body; at most `maximumPendingPDUs` wait; every PDU of a CoAP payload encodes back
/// and their encodings concatenate to the payload; errors lie inside the input.
enum HAPPDUHarness: FuzzHarness {
    static let name = "FuzzHAPPDU"

    static func run(_ input: UnsafeRawBufferPointer) {
        var script = FuzzInput(input)
        let mode = script.byte() % 8
        let rest = script.rest()
        let span = RawSpan(_unsafeBytes: rest)
        switch mode {
        case 0:
            fragments(rest)
        case 1:
            var cursor = ByteCursor(span, layer: .hapPDU, baseOffset: 1)
            do {
                let pdus = try HAPPDU.sequence(parsing: &cursor)
                fuzzInvariant(pdus.flatMap(\.encoded) == Array(rest), "a CoAP batch does not encode back to its payload")
            } catch {
                fuzzCheck(error, within: 0 ... input.count)
            }
        case 2:
            var cursor = ByteCursor(span, layer: .hapPDU, baseOffset: 1)
            do {
                let signature = try HAPCharacteristicSignature(parsing: &cursor)
                _ = signature.properties?.permissions
                _ = signature.presentationFormat?.characteristicFormat
                _ = signature.presentationFormat?.characteristicUnit
            } catch {
                fuzzCheck(error, within: 0 ... input.count)
            }
        case 3:
            var cursor = ByteCursor(span, layer: .hapPDU, baseOffset: 1)
            do { _ = try HAPServiceSignature(parsing: &cursor) } catch { fuzzCheck(error, within: 0 ... input.count) }
        case 4:
            var cursor = ByteCursor(span, layer: .hapPDU, baseOffset: 1)
            do {
                let database = try HAPDatabase(parsing: &cursor)
                for accessory in database.accessories {
                    for service in accessory.services { _ = service.type?.description }
                }
            } catch {
                fuzzCheck(error, within: 0 ... input.count)
            }
        case 5:
            var cursor = ByteCursor(span, layer: .hapPDU, baseOffset: 1)
            do {
                if case .regular(let regular) = try HAPBLEAdvertisement(manufacturerData: &cursor) { _ = regular.deviceIDText }
            } catch {
                fuzzCheck(error, within: 0 ... input.count)
            }
        case 6:
            var cursor = ByteCursor(span, layer: .hapPDU, baseOffset: 1)
            do { _ = try HAPPDUParameters(parsing: &cursor) } catch { fuzzCheck(error, within: 0 ... input.count) }
            var request = ByteCursor(span, layer: .hapPDU, baseOffset: 1)
            do { _ = try HAPProtocolConfigurationRequest(parsing: &request) } catch { fuzzCheck(error, within: 0 ... input.count) }
            var response = ByteCursor(span, layer: .hapPDU, baseOffset: 1)
            do { _ = try HAPProtocolConfigurationResponse(parsing: &response) } catch { fuzzCheck(error, within: 0 ... input.count) }
        default:
            var cursor = ByteCursor(span, layer: .hapPDU, baseOffset: 1)
            do {
                let event = try HAPCoAPEvent(parsing: &cursor)
                for record in event.records {
                    fuzzInvariant(record.offset >= 1 && record.offset + 5 + record.body.count <= input.count, "an event record outside the input")
                }
            } catch {
                fuzzCheck(error, within: 0 ... input.count)
            }
        }
    }

    static func fragments(_ bytes: UnsafeRawBufferPointer) {
        var script = FuzzInput(bytes)
        var reassembler = PDUReassembler(limits: PDUReassemblyLimits(maximumBodyLength: 2048, maximumPendingPDUs: 4))
        var offset = 1
        while !script.isAtEnd {
            let value = script.bytes(upTo: Int(script.byte()))
            offset += 1
            var cursor = ByteCursor(RawSpan(_unsafeBytes: value), layer: .hapPDU, baseOffset: offset)
            do {
                let pdu = try HAPPDU(parsing: &cursor)
                fuzzInvariant(pdu.encoded == Array(value), "a PDU does not encode back to its value")
                let result = reassembler.add(pdu, offset: offset)
                if let whole = result.pdu {
                    switch whole {
                    case .request(let request): fuzzInvariant(request.isComplete, "an incomplete request handed out")
                    case .response(let response): fuzzInvariant(response.isComplete, "an incomplete response handed out")
                    case .continuation: fuzzInvariant(false, "a continuation handed out as a whole PDU")
                    }
                }
                fuzzInvariant(reassembler.pendingPDUCount <= 4, "more pending PDUs than the limit")
            } catch {
                fuzzCheck(error, within: 0 ... offset + value.count)
            }
            offset += value.count
        }
        for problem in reassembler.finish(offset: offset) {
            fuzzInvariant(problem.code == .truncated, "finish reported \(problem)")
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHAPPDU(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    HAPPDUHarness.testOneInput(data, count)
}

#if !FUZZING
@main extension HAPPDUHarness {}
#endif
