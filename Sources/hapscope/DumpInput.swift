import Capture
import HAPEvents
import HAPJSON
import WireParsing

/// An `/accessories` dump named on the command line where a capture could be (`tree`, `audit`,
/// `diff`): the body an accessory sends, or the list aiohomekit and homekit_python save.
enum DumpInput {
    /// Whether a regular file is JSON rather than a capture: it has no pcap or pcapng magic number
    /// and starts, after white space and a byte-order mark, with `{` or `[`.
    static func isDump(_ path: String) -> Bool {
        guard path != "-", let bytes = SystemInterface.firstBytes(of: path, count: 64),
              CaptureFormat.detect(prefix: bytes) == nil else { return false }
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        let first = text.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// Reads and decodes a dump. A file that cannot be read stops the command; one that is not a
    /// database is reported in the event, for the audit's `invalid-json`.
    static func read(_ path: String, limits: JSONLimits) throws(CommandFailure) -> DatabaseDumpEvent {
        var bytes = try SystemInterface.readFile(path, limit: limits.maximumDocumentSize)
        // A byte-order mark is not JSON, but editors on some systems add one.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        let name = path == "-" ? "standard input" : SystemInterface.baseName(path)
        do {
            return DatabaseDumpEvent(name: name, dump: try AccessoryDatabaseDump(bytes: bytes, limits: limits), error: nil,
                                     byteCount: bytes.count)
        } catch {
            return DatabaseDumpEvent(name: name, dump: nil, error: error, byteCount: bytes.count)
        }
    }

    /// A dump that must be a database (`tree`, `diff`): one that is not stops the command.
    static func database(_ path: String, limits: JSONLimits) throws(CommandFailure) -> AccessoryDatabaseDump {
        let event = try read(path, limits: limits)
        guard let dump = event.dump else {
            throw CommandFailure("\(path == "-" ? "standard input" : path): not an /accessories dump: \(event.error?.description ?? "")")
        }
        return dump
    }

    /// The events that bring dumps to the consumers: each an input of its own.
    static func events(_ dumps: [DatabaseDumpEvent]) -> [HAPEvent] {
        dumps.flatMap { dump in
            [HAPEvent(packet: nil, kind: .inputOpened(InputOpenedEvent(name: dump.name, linkType: "accessory database dump", firstPacketTime: nil))),
             HAPEvent(packet: nil, kind: .databaseDump(dump))]
        }
    }
}
