import Foundation
import HAPEvents
import HAPJSON
import HTTP1
import TLV8
import WireParsing

/// Writes every TLV8 and JSON body of a capture to its own file, with a manifest saying where
/// each came from, so firmware teams can feed real messages to their own parser tests
/// (`hapscope extract`). The manifest is written when the input ends.
public final class BodyExtractor: HAPEventConsumer {
    public let directory: URL
    public private(set) var filesWritten = 0
    /// The first file that could not be written, if any; extraction stops there.
    public private(set) var failure: String?
    private var manifest = JSONWriter()

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
        case .inputEnded: writeManifest()
        default: break
        }
    }

    private func extract(_ http: HTTPMessageEvent) {
        let kind: String
        switch http.message.contentType {
        case .pairingTLV8?: kind = "tlv8"
        case .hapJSON?: kind = "json"
        default: return
        }
        let name = String(format: "%04d-c%d-%@-%@.%@", filesWritten + 1, http.connection.id,
                          http.direction == .controllerToAccessory ? "controller" : "accessory",
                          Self.describe(http), kind)
        do {
            try Data(http.message.body).write(to: directory.appendingPathComponent(name))
        } catch {
            failure = "\(directory.appendingPathComponent(name).path): \(error.localizedDescription)"
            return
        }
        filesWritten += 1
        manifest.beginObject()
        manifest.key("file"); manifest.string(name)
        manifest.key("format"); manifest.string(kind)
        manifest.key("connection"); manifest.integer(Int64(http.connection.id))
        manifest.key("client"); manifest.string(http.connection.controller.description)
        manifest.key("accessory"); manifest.string(http.connection.accessory.description)
        manifest.key("direction"); manifest.string(http.direction.rawValue)
        manifest.key("message"); manifest.string(Self.startLine(http))
        manifest.key("packet"); manifest.integer(Int64(http.lastPacket.number))
        manifest.key("firstPacket"); manifest.integer(Int64(http.firstPacket.number))
        manifest.key("time"); manifest.double(http.lastPacket.timestamp.timeInterval)
        manifest.key("encrypted"); manifest.bool(http.encrypted)
        manifest.key("bytes"); manifest.integer(Int64(http.message.body.count))
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
