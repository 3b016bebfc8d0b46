/// HAP's HTTP messages as bytes on the wire, for tests that feed a connection what a controller
/// and an accessory say.
public enum HTTPText {
    /// A request; a body comes with its `Content-Type` and `Content-Length`.
    public static func request(_ method: String, _ target: String, body: [UInt8] = [], contentType: String? = nil) -> [UInt8] {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: hapscope-test.local\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n" }
        return Array((head + "\r\n").utf8) + body
    }

    /// A response with a body.
    public static func response(status: String = "200 OK", body: [UInt8], contentType: String) -> [UInt8] {
        Array("HTTP/1.1 \(status)\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
    }

    /// A response without a body, such as `204 No Content`.
    public static func response(status: String) -> [UInt8] {
        Array("HTTP/1.1 \(status)\r\nContent-Length: 0\r\n\r\n".utf8)
    }

    /// HAP: an `EVENT/1.0` notification carrying `body` (characteristic values).
    public static func event(_ body: [UInt8]) -> [UInt8] {
        Array("EVENT/1.0 200 OK\r\nContent-Type: application/hap+json\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
    }

    /// A pairing request: `POST` of a TLV8 body to `/pair-setup`, `/pair-verify` or `/pairings`.
    public static func pairingRequest(_ target: String, _ body: [UInt8]) -> [UInt8] {
        request("POST", target, body: body, contentType: "application/pairing+tlv8")
    }

    /// The accessory's answer to a pairing request.
    public static func pairingResponse(_ body: [UInt8]) -> [UInt8] {
        response(body: body, contentType: "application/pairing+tlv8")
    }

    /// A response with a HAP JSON body.
    public static func jsonResponse(status: String = "200 OK", _ json: String) -> [UInt8] {
        response(status: status, body: Array(json.utf8), contentType: "application/hap+json")
    }
}
