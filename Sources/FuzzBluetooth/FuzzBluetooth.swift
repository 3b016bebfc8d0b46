import Bluetooth
import FuzzSupport
import WireParsing

/// Fuzz target: HCI frames of both Bluetooth link types down to ATT, LE signalling, SMP and
/// advertising data, with ACL reassembly across frames.
///
/// Input: a settings byte (bit 0: link type 254 instead of 201; bits 1–3: the reassembler's
/// frame limit, 64 << n bytes), then frames, each a 2-byte little-endian length and that many
/// bytes (the last frame takes what remains). Besides not crashing, the decoders must keep
/// these promises:
/// - every error lies inside its input (offsets from 0 to the input's length);
/// - a frame the reassembler joins is exactly as long as its L2CAP header says, never above
///   the limit, and the bytes it holds stay within limit × pending frames;
/// - an ATT PDU's `opcode` is the byte it was read from;
/// - a strict advertising-data decode that succeeds agrees with the lenient one.
enum BluetoothHarness: FuzzHarness {
    static let name = "FuzzBluetooth"

    static func run(_ input: UnsafeRawBufferPointer) {
        var script = FuzzInput(input)
        let settings = script.byte()
        let linkType: BluetoothLinkType = settings & 1 == 1 ? .linuxMonitor : .h4WithPseudoHeader
        let limits = ACLReassemblyLimits(maximumFrameLength: 64 << Int(settings >> 1 & 0x07), maximumPendingFrames: 4)
        var reassembler = ACLReassembler(limits: limits)
        var offset = 1
        while !script.isAtEnd {
            let declared = Int(script.uint16())
            let frame = script.bytes(upTo: declared == 0 ? script.remainingCount : declared)
            offset += 2
            decodeFrame(frame, linkType: linkType, reassembler: &reassembler, offset: offset)
            fuzzInvariant(reassembler.pendingFrameCount <= limits.maximumPendingFrames, "more pending frames than the limit")
            fuzzInvariant(reassembler.pendingByteCount <= limits.maximumFrameLength * limits.maximumPendingFrames, "pending bytes above the limits")
            offset += frame.count
        }
        for problem in reassembler.finish(offset: offset) {
            fuzzInvariant(problem.code == .truncated, "finish reported \(problem)")
        }
    }

    static func decodeFrame(_ frame: UnsafeRawBufferPointer, linkType: BluetoothLinkType, reassembler: inout ACLReassembler, offset: Int) {
        let span = RawSpan(_unsafeBytes: frame)
        var cursor = ByteCursor(span, layer: .bluetoothLink, baseOffset: offset)
        let header: HCIFrame
        do {
            header = try HCIFrame(parsing: &cursor, linkType: linkType)
        } catch {
            fuzzCheck(error, within: 0 ... offset + frame.count)
            return
        }
        guard case .packet(let direction, let indicator, _) = header else { return }
        let packetStart = cursor.offset
        var packet = ByteCursor(cursor.readRemaining(), layer: .hci, baseOffset: packetStart)
        do {
            switch indicator {
            case .command:
                let command = try HCICommand(parsing: &packet)
                _ = command.opcode.description
            case .event:
                let event = try HCIEvent(parsing: &packet)
                _ = event.code.description
                if case .leMeta(.advertisingReports(let reports)) = event.content {
                    for report in reports { touch(report.data) }
                }
            case .aclData:
                let acl = try ACLDataHeader(parsing: &packet)
                let fragmentStart = packet.offset
                let fragment = packet.readRemaining()
                let result = reassembler.add(acl, direction: direction, fragment: fragment, offset: fragmentStart)
                for problem in result.problems { fuzzCheck(problem, within: 0 ... offset + frame.count) }
                switch result.frame {
                case .inFragment?:
                    var l2cap = ByteCursor(fragment, layer: .l2cap, baseOffset: fragmentStart)
                    decodeL2CAP(&l2cap)
                case .joined(let bytes)?:
                    fuzzInvariant(bytes.count <= reassembler.limits.maximumFrameLength, "a joined frame above the limit")
                    fuzzInvariant(bytes.count == 4 + (Int(bytes[0]) | Int(bytes[1]) << 8), "a joined frame of the wrong length")
                    var l2cap = ByteCursor(bytes.span.bytes, layer: .l2cap)
                    decodeL2CAP(&l2cap)
                case nil:
                    break
                }
            case .synchronousData:
                _ = try SynchronousDataHeader(parsing: &packet)
            case .isoData:
                _ = try ISODataHeader(parsing: &packet)
            default:
                var ad = ByteCursor(packet.readRemaining(), layer: .advertisingData, baseOffset: packetStart)
                checkAdvertisingData(&ad)
            }
        } catch {
            fuzzCheck(error, within: 0 ... offset + frame.count)
        }
    }

    static func decodeL2CAP(_ cursor: inout ByteCursor) {
        do {
            let header = try L2CAPBasicHeader(parsing: &cursor)
            let start = cursor.offset
            let payload = cursor.readRemaining()
            switch header.channel {
            case .attribute:
                var att = ByteCursor(payload, layer: .att, baseOffset: start)
                let first = payload.byteCount > 0 ? payload.unsafeLoad(fromByteOffset: 0, as: UInt8.self) : 0
                let pdu = try ATTPDU(parsing: &att)
                fuzzInvariant(pdu.opcode.rawValue == first, "ATT opcode \(pdu.opcode) read from byte \(first)")
                _ = pdu.opcode.description
                if case .findInformationResponse(let entries) = pdu { for entry in entries { _ = entry.type.description } }
            case .leSignaling:
                var signaling = ByteCursor(payload, layer: .l2cap, baseOffset: start)
                _ = try LESignalingCommand(parsing: &signaling)
            case .securityManager:
                var smp = ByteCursor(payload, layer: .smp, baseOffset: start)
                _ = try SMPCommand(parsing: &smp).code.description
            default:
                var ad = ByteCursor(payload, layer: .advertisingData, baseOffset: start)
                checkAdvertisingData(&ad)
            }
        } catch {
            _ = error.description
        }
    }

    /// Strict and lenient decodes of arbitrary bytes as advertising data agree.
    static func checkAdvertisingData(_ cursor: inout ByteCursor) {
        var lenientCursor = cursor
        let lenient = AdvertisingData(parsingLeniently: &lenientCursor)
        do {
            let strict = try AdvertisingData(parsing: &cursor)
            fuzzInvariant(lenient.problem == nil && lenient.structures == strict.structures, "strict and lenient advertising data differ")
            touch(strict)
        } catch {
            fuzzInvariant(lenient.problem == error, "the lenient decode did not record the strict error \(error)")
        }
    }

    static func touch(_ data: AdvertisingData) {
        _ = data.flags
        _ = data.localName
        _ = data.serviceUUIDs.map(\.description)
        _ = data.manufacturerData
        _ = data.serviceData
        _ = data.txPowerLevel
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBluetooth(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    BluetoothHarness.testOneInput(data, count)
}

#if !FUZZING
@main extension BluetoothHarness {}
#endif
