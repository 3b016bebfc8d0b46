import HAPEvents
import HAPJSON
import HTTP1
import Packets

extension EventJSON {
    /// An HTTP message (docs/json.md, "http-message"): the event's packet is the one holding the
    /// message's last byte; `firstPacket` holds its first.
    static func writeHTTPMessage(_ event: HTTPMessageEvent, into writer: inout JSONWriter) {
        let message = event.message
        writer.member("firstPacket", event.firstPacket.number)
        writeConnection(event.connection, into: &writer)
        writer.member("direction", event.direction.rawValue)
        writer.member("kind", HTTPText.kindName(message.kind))
        writer.member("encrypted", event.encrypted)
        // Only messages hapscope could read become events: an encrypted one was decrypted.
        writer.member("decrypted", event.encrypted)
        writer.member("startLine", HTTPText.startLine(message))
        if let line = message.requestLine {
            writer.member("method", line.method.rawValue)
            writer.member("target", line.target)
        } else if let line = message.statusLine {
            writer.member("status", line.status.rawValue)
            writer.member("reason", line.reasonPhrase)
        }
        writer.objects("headers", message.headers) { writer, field in
            writer.member("name", field.name)
            writer.member("value", field.value)
        }
        writer.member("contentType", message.contentType?.mediaType)
        writer.member("bodyLength", message.body.count)
        if let printable = event.printableBody {
            let body = HTTPText.body(printable)
            writer.member("bodyEncoding", body.encoding)
            writer.member("body", body.text)
        }
        if let secrets = event.bodyWithoutSecrets {
            writer.member("bodySecrets", secrets == .withheld ? "withheld" : "zeroed")
        }
        if let request = event.request {
            writer.object("answers") { writer in
                writer.member("method", request.method)
                writer.member("target", request.target)
                writer.member("packet", request.packet.number)
            }
            writer.member("responseTime", seconds: CaptureClock.seconds(from: request.packet.timestamp, to: event.lastPacket.timestamp))
        }
        if !message.diagnostics.isEmpty {
            writer.member("diagnostics", strings: message.diagnostics.map(\.description))
        }
    }
}
