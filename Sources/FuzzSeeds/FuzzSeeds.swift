import Capture
import FuzzSupport
import HAPAnalysis
import HAPCore
import HAPEvents
import HTTP1
import Packets
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Cuts recorded captures into seed inputs for the fuzz targets (scripts/fuzz.sh runs it):
///
/// | directory | holds | for |
/// |---|---|---|
/// | `capture` | each capture whole, and slices of it as pcap files (a btsnoop or PacketLogger file's under its HCI link type) | FuzzCapture |
/// | `dns` | every mDNS UDP payload | FuzzDNS |
/// | `http` | each direction of each HAP connection, decrypted where the key log allows, behind the harness's two-byte prefix | FuzzHTTP |
/// | `tlv8` | every pairing body, and every TLV8 characteristic value of known structure | FuzzTLV8 |
/// | `json` | every HAP JSON body | FuzzHAPJSON |
///
/// A file is named after its content, so equal seeds are written once.
///
/// Usage: `FuzzSeeds OUTPUT_DIRECTORY [--keylog FILE]... CAPTURE...`
@main
enum FuzzSeeds {
    /// Packets per capture slice: small enough to mutate quickly, large enough to hold a pairing.
    static let sliceLength = 24

    static func main() {
        var arguments = CommandLine.arguments.dropFirst()
        guard let output = arguments.popFirst() else { usage() }
        var keyLog = KeyLog()
        var captures: [String] = []
        while let argument = arguments.popFirst() {
            if argument == "--keylog" {
                guard let path = arguments.popFirst(), let bytes = readFile(path) else { usage() }
                do {
                    try keyLog.add(parsing: String(decoding: bytes, as: UTF8.self), source: path)
                } catch {
                    fail("\(error)")
                }
            } else {
                captures.append(argument)
            }
        }
        guard !captures.isEmpty else { usage() }
        var writer = SeedWriter(directory: output)
        for capture in captures {
            do {
                try sliceAndDecode(capture, into: &writer)
                analyze(capture, keyLog: keyLog, into: &writer)
            } catch {
                fail("\(error)")
            }
        }
        print("FuzzSeeds: wrote \(writer.written) seeds to \(output) from \(captures.count) captures")
    }

    /// Writes the capture whole and in slices, and every mDNS payload in it.
    private static func sliceAndDecode(_ capture: String, into writer: inout SeedWriter) throws(CaptureError) {
        if let bytes = readFile(capture) { writer.write(bytes, kind: "capture") }
        let reader = try CaptureFileReader(files: [capture])
        let decoder = PacketDecoder()
        var slice: PcapWriter?
        var slicePackets = 0
        let slicePath = writer.temporaryPath
        func closeSlice() throws(CaptureError) {
            guard let open = slice else { return }
            try open.close()
            slice = nil
            if let bytes = readFile(slicePath) { writer.write(bytes, kind: "capture") }
            unlink(slicePath)
        }
        while let packet = try reader.next() {
            if slice == nil {
                slice = try PcapWriter(file: slicePath, linkType: packet.linkType)
                slicePackets = 0
            }
            slice?.write(packet.bytes, timestamp: packet.info.timestamp, originalLength: packet.info.originalLength)
            slicePackets += 1
            if slicePackets == sliceLength { try closeSlice() }
            if case .udp(let datagram)? = try? decoder.decode(linkType: packet.linkType, packet: packet.bytes, info: packet.info),
               datagram.source.port == 5353 || datagram.destination.port == 5353 {
                writer.write(Array(datagram.payload), kind: "dns")
            }
        }
        try closeSlice()
    }

    /// Runs the analysis and keeps the HTTP streams and bodies it recovers.
    private static func analyze(_ capture: String, keyLog: KeyLog, into writer: inout SeedWriter) {
        var streams: [String: [UInt8]] = [:]
        var bodies: [(kind: String, bytes: [UInt8])] = []
        let sink = EventSink { event in
            if case .characteristic(let activity) = event.kind, activity.structure != nil,
               case .bytes(let value)? = activity.value?.value {
                bodies.append(("tlv8", value))
            }
            guard case .httpMessage(let http) = event.kind else { return }
            let message = http.message
            // The harness reads a settings byte and a cut count first: 0, 0 feeds the stream whole.
            // A chunked message is not kept as sent, so its stream stops short of it.
            if let raw = message.rawBytes {
                streams["\(http.connection.id) \(http.direction)", default: [0, 0]] += raw
            }
            switch message.contentType {
            case .pairingTLV8?: bodies.append(("tlv8", Array(message.body)))
            case .hapJSON?: bodies.append(("json", Array(message.body)))
            default: break
            }
        }
        guard let reader = try? CaptureFileReader(files: [capture]) else { return }
        AnalysisPipeline(configuration: AnalysisConfiguration(keyLog: keyLog), consumers: [sink]).run(reader)
        for stream in streams.values { writer.write(stream, kind: "http") }
        for body in bodies where !body.bytes.isEmpty { writer.write(body.bytes, kind: body.kind) }
    }

    private static func usage() -> Never {
        fail("usage: FuzzSeeds OUTPUT_DIRECTORY [--keylog FILE]... CAPTURE...")
    }

    private static func fail(_ message: String) -> Never {
        writeToStandardError("FuzzSeeds: \(message)\n")
        exit(2)
    }
}

/// Writes seeds into per-target directories, named by a hash of their content.
struct SeedWriter {
    let directory: String
    private(set) var written = 0

    init(directory: String) {
        self.directory = directory
    }

    var temporaryPath: String { "\(directory)/.slice.pcap" }

    mutating func write(_ bytes: [UInt8], kind: String) {
        let folder = "\(directory)/\(kind)"
        mkdir(directory, 0o755)
        mkdir(folder, 0o755)
        // FNV-1a: a stable name, so that rerunning the export adds nothing twice.
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        let path = "\(folder)/\(String(hash, radix: 16))"
        guard access(path, F_OK) != 0 else { return }
        guard let file = fopen(path, "wb") else {
            writeToStandardError("FuzzSeeds: cannot write \(path)\n")
            exit(2)
        }
        if !bytes.isEmpty { fwrite(bytes, 1, bytes.count, file) }
        fclose(file)
        written += 1
    }
}
