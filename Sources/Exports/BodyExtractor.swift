import Foundation
import HAPEvents
import HAPJSON
import HTTP1
import Packets
import TLV8
import WireParsing

/// Writes every TLV8 and JSON body of a capture to its own file, with a manifest saying where
/// each came from, so firmware teams can feed real messages to their own parser tests
/// (`hapscope extract`). The manifest is written when the input ends.
///
/// Over IP the bodies are the HTTP messages' bodies as sent. HAP over Bluetooth LE and over
/// CoAP carry no HTTP: their pairing bodies are taken from the pairing messages, re-encoded from
/// the decoded items (the same bytes for a body that follows HAP's fragmentation rule).
public final class BodyExtractor: HAPEventConsumer {
    public let directory: URL
    public private(set) var filesWritten = 0
    /// The first file that could not be written, if any; extraction stops there.
    public private(set) var failure: String?
    private var manifest = JSONWriter()
    /// The BLE and CoAP connections whose session has started: their later PDUs are encrypted.
    private var securedConnections: Set<Int> = []

    /// Extracts into `directory`, which is created if needed.
    public init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        manifest.beginArray()
    }

    public func consume(_ event: HAPEvent) {
        guard failure == nil else { return }
        switch event.kind {
        case .httpMessage(let http) where !http.message.body.isEmpty: extract(http)
        case .pairingMessage(let pairing) where !Self.carriesHTTP(pairing.connection): extract(pairing, at: event.packet)
        case .sessionStarted(let session): securedConnections.insert(session.connection.id)
        case .connectionClosed(let summary): securedConnections.remove(summary.connection.id)
        case .inputEnded: writeManifest()
        default: break
        }
    }

    /// Over IP every pairing body is also an HTTP message's body, extracted as such.
    private static func carriesHTTP(_ connection: ConnectionInfo) -> Bool {
        if case .ip = connection.transport { return true }
        return false
    }

    private func extract(_ http: HTTPMessageEvent) {
        let kind: String
        switch http.message.contentType {
        case .pairingTLV8?: kind = "tlv8"
        case .hapJSON?: kind = "json"
        default: return
        }
        write(Array(http.message.body), format: kind, description: Self.describe(http), connection: http.connection,
              direction: http.direction, message: Self.startLine(http), packets: (http.firstPacket, http.lastPacket),
              encrypted: http.encrypted)
    }

    private func extract(_ pairing: PairingMessageEvent, at packet: PacketInfo?) {
        guard let packet else { return }
        let body = pairing.body.encoded()
        guard !body.isEmpty else { return }
        let step = [pairing.procedure.rawValue, pairing.state?.description].compactMap(\.self)
        write(body, format: "tlv8", description: step.joined(separator: "-"), connection: pairing.connection,
              direction: pairing.direction, message: step.joined(separator: " "), packets: (packet, packet),
              encrypted: securedConnections.contains(pairing.connection.id))
    }

    private func write(
        _ body: [UInt8], format: String, description: String, connection: ConnectionInfo, direction: HAPDirection,
        message: String, packets: (first: PacketInfo, last: PacketInfo), encrypted: Bool
    ) {
        let name = String(format: "%04d-c%d-%@-%@.%@", filesWritten + 1, connection.id,
                          direction == .controllerToAccessory ? "controller" : "accessory", Self.fileNameSafe(description), format)
        do {
            try Data(body).write(to: directory.appendingPathComponent(name))
        } catch {
            failure = "\(directory.appendingPathComponent(name).path): \(error.localizedDescription)"
            return
        }
        filesWritten += 1
        manifest.beginObject()
        manifest.key("file"); manifest.string(name)
        manifest.key("format"); manifest.string(format)
        manifest.key("connection"); manifest.integer(Int64(connection.id))
        manifest.key("client"); manifest.string(connection.controller.description)
        manifest.key("accessory"); manifest.string(connection.accessory.description)
        manifest.key("direction"); manifest.string(direction.rawValue)
        manifest.key("message"); manifest.string(message)
        manifest.key("packet"); manifest.integer(Int64(packets.last.number))
        manifest.key("firstPacket"); manifest.integer(Int64(packets.first.number))
        manifest.key("time"); manifest.double(packets.last.timestamp.timeInterval)
        manifest.key("encrypted"); manifest.bool(encrypted)
        manifest.key("bytes"); manifest.integer(Int64(body.count))
        manifest.endObject()
    }

    private func writeManifest() {
        manifest.endArray()
        let file = directory.appendingPathComponent("manifest.json")
        do {
            try Data(manifest.bytes + [0x0A]).write(to: file)
        } catch {
            failure = "\(file.path): \(error.localizedDescription)"
        }
    }

    /// A short file-name-safe description: the endpoint and, for pairing bodies, the state.
    private static func describe(_ http: HTTPMessageEvent) -> String {
        let target = http.message.requestLine?.target ?? http.request?.target ?? (http.message.isEvent ? "event" : "response")
        var name = target.split(separator: "?").first.map(String.init) ?? target
        name = name.trimmingCharacters(in: CharacterSet(charactersIn: "/")).replacingOccurrences(of: "/", with: "-")
        if http.message.isEvent { name = "event" }
        if http.message.contentType == .pairingTLV8, let state = Self.pairingState(http.message) { name += "-\(state)" }
        return name
    }

    private static func fileNameSafe(_ name: String) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_"))
        return String(name.unicodeScalars.map { allowed.contains($0) ? Character($0) : "_" }.prefix(48))
    }

    private static func pairingState(_ message: HTTPMessage) -> PairingState? {
        var cursor = ByteCursor(message.bodySpan, layer: .tlv8)
        guard let value = TLV8Body(parsingLeniently: &cursor).first(.state)?.value, value.count == 1 else { return nil }
        return PairingState(rawValue: value[0])
    }

    /// The message's first line exactly as sent.
    private static func startLine(_ http: HTTPMessageEvent) -> String {
        String(decoding: http.message.headBytes.prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
    }
}
