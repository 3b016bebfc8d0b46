/// The HTTP/1.1 and `EVENT/1.0` messages of generated HAP traffic, spelled as HAP accessories
/// and controllers send them (PROTOCOL §5).
enum HAPHTTPText {
    static func pairingRequest(_ path: String, host: String, body: [UInt8]) -> [UInt8] {
        Array("POST \(path) HTTP/1.1\r\nHost: \(host)\r\nContent-Length: \(body.count)\r\nContent-Type: application/pairing+tlv8\r\n\r\n".utf8) + body
    }

    static func pairingResponse(body: [UInt8]) -> [UInt8] {
        Array("HTTP/1.1 200 OK\r\nContent-Type: application/pairing+tlv8\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
    }

    static func get(_ target: String, host: String) -> [UInt8] {
        Array("GET \(target) HTTP/1.1\r\nHost: \(host)\r\n\r\n".utf8)
    }

    static func put(_ target: String, host: String, json: String) -> [UInt8] {
        Array("PUT \(target) HTTP/1.1\r\nHost: \(host)\r\nContent-Type: application/hap+json\r\nContent-Length: \(json.utf8.count)\r\n\r\n\(json)".utf8)
    }

    static func jsonResponse(json: String) -> [UInt8] {
        Array("HTTP/1.1 200 OK\r\nContent-Type: application/hap+json\r\nContent-Length: \(json.utf8.count)\r\n\r\n\(json)".utf8)
    }

    /// HomeKitADK sends `/accessories` chunked (PROTOCOL §5.1): one chunk per `chunkSize` bytes.
    static func chunkedJSONResponse(json: String, chunkSize: Int) -> [UInt8] {
        var message = Array("HTTP/1.1 200 OK\r\nContent-Type: application/hap+json\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        let body = Array(json.utf8)
        var offset = 0
        while offset < body.count {
            let end = min(offset + chunkSize, body.count)
            message += Array("\(String(end - offset, radix: 16))\r\n".utf8)
            message += body[offset..<end]
            message += [0x0D, 0x0A]
            offset = end
        }
        message += Array("0\r\n\r\n".utf8)
        return message
    }

    static let noContent = Array("HTTP/1.1 204 No Content\r\n\r\n".utf8)

    static func event(json: String) -> [UInt8] {
        Array("EVENT/1.0 200 OK\r\nContent-Type: application/hap+json\r\nContent-Length: \(json.utf8.count)\r\n\r\n\(json)".utf8)
    }
}
