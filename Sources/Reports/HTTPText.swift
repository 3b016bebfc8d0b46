import HAPEvents
import HAPJSON
import HTTP1
import Packets

/// How HTTP messages are named and their bodies shown, in text and JSON alike.
enum HTTPText {
    static func kindName(_ kind: HTTPMessage.Kind) -> String {
        switch kind {
        case .request: "request"
        case .response: "response"
        case .event: "event"
        }
    }

    /// The start line exactly as sent (without its line ending).
    static func startLine(_ message: HTTPMessage) -> String {
        String(decoding: message.headBytes.prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
    }

    /// A body as JSON can carry it: the text when it is valid UTF-8, else base64.
    static func body(_ bytes: ArraySlice<UInt8>) -> (encoding: String, text: String) {
        if let text = String(validating: bytes, as: UTF8.self) {
            return ("utf-8", text)
        }
        return ("base64", Base64.encode(bytes))
    }
}
