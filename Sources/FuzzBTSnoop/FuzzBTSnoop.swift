import Bluetooth
import Capture
import FuzzSupport
import Packets
import WireParsing

/// Fuzz target: btsnoop and PacketLogger files, read from memory, and their packets through
/// the `Bluetooth` frame decoder.
///
/// Input: a whole file. `CaptureFormat.detect` names its format; a btsnoop file goes to
/// `BTSnoopFileReader`, anything else to `PacketLoggerFileReader` (which has no magic number).
/// Besides not crashing, the readers must keep these promises: every packet's bytes number its
/// captured length, which is at most its original length and within the record bound plus the
/// pseudo-header; its link type is one the `Bluetooth` module decodes; packet numbers rise;
/// damage is reported once, at an offset inside the file, and nothing follows it.
enum BTSnoopHarness: FuzzHarness {
    static let name = "FuzzBTSnoop"

    static let maximumRecordLength = 4096

    static func run(_ input: UnsafeRawBufferPointer) {
        let bytes = Array(input)
        _ = CaptureFormat.detect(prefix: bytes)
        if CaptureFormat.detect(prefix: bytes) == .btsnoop {
            guard let reader = try? BTSnoopFileReader(bytes: bytes, name: "fuzz", maximumRecordLength: maximumRecordLength) else { return }
            drain(next: reader.next, size: bytes.count)
        } else {
            guard let reader = try? PacketLoggerFileReader(bytes: bytes, name: "fuzz", maximumRecordLength: maximumRecordLength) else { return }
            drain(next: reader.next, size: bytes.count)
        }
    }

    static func drain(next: () throws(CaptureError) -> CapturedPacket?, size: Int) {
        var lastNumber = 0
        while true {
            let packet: CapturedPacket?
            do {
                packet = try next()
            } catch {
                if case .damagedFile(_, let offset, _, _) = error {
                    fuzzInvariant((offset ?? 0) <= size, "damage reported past the end of the file")
                }
                _ = error.description
                fuzzInvariant((try? next()) == nil, "a packet after the damage")
                return
            }
            guard let packet else { return }
            fuzzInvariant(packet.bytes.count == packet.info.capturedLength, "bytes and captured length differ")
            fuzzInvariant(packet.info.capturedLength <= packet.info.originalLength, "captured more than the original")
            fuzzInvariant(packet.info.capturedLength <= maximumRecordLength + 5, "a packet above the record bound")
            fuzzInvariant(packet.info.number > lastNumber, "packet numbers do not rise")
            lastNumber = packet.info.number
            guard let linkType = BluetoothLinkType(rawValue: packet.linkType.rawValue) else {
                fuzzInvariant(false, "a link type the Bluetooth module does not decode: \(packet.linkType)")
                return
            }
            var cursor = ByteCursor(RawSpan(_unsafeBytes: packet.bytes), layer: .bluetoothLink)
            _ = try? HCIFrame(parsing: &cursor, linkType: linkType)
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBTSnoop(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    BTSnoopHarness.testOneInput(data, count)
}

#if !FUZZING
@main extension BTSnoopHarness {}
#endif
