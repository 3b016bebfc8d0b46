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
        if let timing = event.responseTiming {
            writer.object("latency") { writer in
                writer.member("seconds", seconds: timing.seconds)
                writer.member("verdict", timing.verdict.rawValue)
            }
        }
        if !event.notificationProblems.isEmpty {
            writer.objects("notificationProblems", event.notificationProblems) { writer, problem in
                writeNotificationProblem(problem, into: &writer)
            }
        }
        if !message.diagnostics.isEmpty {
            writer.member("diagnostics", strings: message.diagnostics.map(\.description))
        }
    }

    /// One of an EVENT's `notificationProblems`: `kind` and what it concerns.
    static func writeNotificationProblem(_ problem: NotificationProblem, into writer: inout JSONWriter) {
        switch problem {
        case .burst(let id, let seconds):
            writer.member("kind", "burst")
            writer.member("characteristic", id.description)
            writer.member("seconds", seconds: seconds)
        case .insideResponse(let request, let seconds):
            writer.member("kind", "inside-response")
            writer.member("method", request.method)
            writer.member("target", request.target)
            writer.member("requestPacket", request.packet.number)
            writer.member("seconds", seconds: seconds)
        case .afterUnsubscribe(let id, let unsubscribedAt):
            writer.member("kind", "after-unsubscribe")
            writer.member("characteristic", id.description)
            writer.member("unsubscribedPacket", unsubscribedAt.number)
        }
    }
}
