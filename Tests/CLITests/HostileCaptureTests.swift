import Capture
import Foundation
import HAPCore
import HAPEvents
import HAPJSON
import Packets
import Testing
import TestSupport

/// Names, TXT values and HTTP headers are chosen by whoever is on the network: a capture whose
/// strings carry terminal escape sequences must not get them to the user's terminal.
@Suite("Hostile capture strings")
struct HostileCaptureTests {
    /// Clears the screen, retitles the window, rings the bell.
    static let escape = "\u{1B}[2J\u{1B}]0;owned\u{07}"
    /// The same in JSON's escapes, which a JSON string decodes to the raw characters.
    static let jsonEscape = "\\u001b[2J\\u001b]0;owned\\u0007"
    /// The 8-bit CSI: HTTP lets header values carry bytes above 0x7F, and some terminals obey it.
    static let c1Escape = "\u{9B}2J"

    /// One Ethernet frame carrying an IPv4 packet of `protocolNumber` from 10.0.0.1 to 10.0.0.2
    /// (or back), with a correct header checksum.
    static func frame(_ payload: [UInt8], protocolNumber: UInt8, toAccessory: Bool) -> [UInt8] {
        let (source, destination): ([UInt8], [UInt8]) = toAccessory ? ([10, 0, 0, 1], [10, 0, 0, 2]) : ([10, 0, 0, 2], [10, 0, 0, 1])
        let length = 20 + payload.count
        var ip: [UInt8] = [0x45, 0, UInt8(length >> 8), UInt8(length & 0xFF), 0, 1, 0x40, 0, 64, protocolNumber, 0, 0]
            + source + destination
        let checksum = internetChecksum(ip)
        ip[10] = UInt8(checksum >> 8)
        ip[11] = UInt8(checksum & 0xFF)
        let ethernet: [UInt8] = [2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00]
        return ethernet + ip + payload
    }

    static func internetChecksum(_ bytes: [UInt8]) -> UInt16 {
        var sum: UInt32 = 0
        for index in stride(from: 0, to: bytes.count, by: 2) {
            sum += UInt32(bytes[index]) << 8 + (index + 1 < bytes.count ? UInt32(bytes[index + 1]) : 0)
        }
        while sum > 0xFFFF { sum = (sum & 0xFFFF) + (sum >> 16) }
        return ~UInt16(sum)
    }

    /// A DNS name in wire form, no compression.
    static func name(_ labels: [[UInt8]]) -> [UInt8] {
        labels.flatMap { [UInt8($0.count)] + $0 } + [0]
    }

    static func record(_ owner: [UInt8], type: UInt16, `class`: UInt16 = 0x8001, ttl: UInt32 = 4500, _ data: [UInt8]) -> [UInt8] {
        owner + [UInt8(type >> 8), UInt8(type & 0xFF), UInt8(`class` >> 8), UInt8(`class` & 0xFF)]
            + withUnsafeBytes(of: ttl.bigEndian, Array.init) + [UInt8(data.count >> 8), UInt8(data.count & 0xFF)] + data
    }

    /// HAP: an mDNS announcement (RFC 6762) of `_hap._tcp` whose instance name and model carry
    /// escape sequences.
    static func announcement() -> [UInt8] {
        let instance = name([Array("Evil\(escape)Lamp".utf8), Array("_hap".utf8), Array("_tcp".utf8), Array("local".utf8)])
        let service = name([Array("_hap".utf8), Array("_tcp".utf8), Array("local".utf8)])
        let host = name([Array("evil".utf8), Array("local".utf8)])
        let txt = ["c#=1", "ff=0", "id=1A:2B:3C:4D:5E:6F", "md=Model\(escape)", "pv=1.1", "s#=1", "sf=1", "ci=5"]
            .flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) }
        let header: [UInt8] = [0, 0, 0x84, 0x00, 0, 0, 0, 4, 0, 0, 0, 0]
        let message = header
            + record(service, type: 12, class: 1, instance)
            + record(instance, type: 33, ttl: 120, [0, 0, 0, 0, 0xCA, 0x72] + host)
            + record(instance, type: 16, txt)
            + record(host, type: 1, ttl: 120, [10, 0, 0, 2])
        let udp: [UInt8] = [0x14, 0xE9, 0x14, 0xE9, UInt8((message.count + 8) >> 8), UInt8((message.count + 8) & 0xFF), 0, 0]
        return frame(udp + message, protocolNumber: 17, toAccessory: false)
    }

    /// A TCP segment with a correct checksum between 10.0.0.1:49200 and 10.0.0.2:51826.
    static func segment(_ payload: [UInt8], toAccessory: Bool, sequence: UInt32, acknowledgment: UInt32) -> [UInt8] {
        let (sourcePort, destinationPort): (UInt16, UInt16) = toAccessory ? (49200, 51826) : (51826, 49200)
        var tcp: [UInt8] = [UInt8(sourcePort >> 8), UInt8(sourcePort & 0xFF), UInt8(destinationPort >> 8), UInt8(destinationPort & 0xFF)]
            + withUnsafeBytes(of: sequence.bigEndian, Array.init) + withUnsafeBytes(of: acknowledgment.bigEndian, Array.init)
            + [0x50, 0x18, 0xFF, 0xFF, 0, 0, 0, 0] + payload
        let (source, destination): ([UInt8], [UInt8]) = toAccessory ? ([10, 0, 0, 1], [10, 0, 0, 2]) : ([10, 0, 0, 2], [10, 0, 0, 1])
        let pseudoHeader = source + destination + [0, 6, UInt8(tcp.count >> 8), UInt8(tcp.count & 0xFF)]
        let checksum = internetChecksum(pseudoHeader + tcp)
        tcp[16] = UInt8(checksum >> 8)
        tcp[17] = UInt8(checksum & 0xFF)
        return frame(tcp, protocolNumber: 6, toAccessory: toAccessory)
    }

    /// The capture: the announcement, then a plaintext `GET /accessories` whose request and
    /// response carry an 8-bit escape in a header, and a body whose name decodes to escapes.
    static func capture() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hapscope-hostile-\(UUID().uuidString).pcap")
        let writer = try PcapWriter(file: url.path, linkType: .ethernet, precision: .microseconds)
        let request = Array("GET /accessories HTTP/1.1\r\nX-Note: \(c1Escape)\r\n\r\n".utf8)
        let body = Array("{\"accessories\":[{\"aid\":1,\"services\":[{\"iid\":1,\"type\":\"3E\",\"characteristics\":[{\"iid\":2,\"type\":\"23\",\"perms\":[\"pr\"],\"format\":\"string\",\"value\":\"Name\(jsonEscape)\"}]}]}]}".utf8)
        let response = Array("HTTP/1.1 200 OK\r\nContent-Type: application/hap+json\r\nContent-Length: \(body.count)\r\nX-Note: \(c1Escape)\r\n\r\n".utf8) + body
        let frames = [
            announcement(),
            segment(request, toAccessory: true, sequence: 1000, acknowledgment: 5000),
            segment(response, toAccessory: false, sequence: 5000, acknowledgment: 1000 + UInt32(request.count)),
        ]
        for (index, frame) in frames.enumerated() {
            frame.withUnsafeBytes { writer.write($0, timestamp: Timestamp(seconds: 1_800_000_000 + Int64(index), nanoseconds: 0)) }
        }
        try writer.flush()
        return url
    }

    @Test("no escape sequence from the capture reaches the text of any command", arguments: [
        ["summary"], ["discover"], ["discover", "--verbose"], ["events"], ["http", "--verbose"], ["tree"], ["timeline"], ["stats"],
    ])
    func textIsSafe(command: [String]) throws {
        let file = try Self.capture()
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try HapscopeBinary.run(command + [file.path])
        #expect(result.status == 0, "\(result.standardError)")
        let controls = result.outputBytes.filter { $0 < 0x20 && $0 != 0x0A }
        #expect(controls.isEmpty, "\(command) printed control bytes \(controls)")
        #expect(!result.standardOutput.contains("\u{9B}"))
    }

    @Test("the strings still show, escaped, so nothing is hidden from the user")
    func stringsStillShow() throws {
        let file = try Self.capture()
        defer { try? FileManager.default.removeItem(at: file) }
        let http = try HapscopeBinary.run(["http", "--verbose", file.path]).standardOutput
        #expect(http.contains("X-Note: \\u{9B}2J"))
        let tree = try HapscopeBinary.run(["tree", file.path]).standardOutput
        #expect(tree.contains("aid 1  Name\\u{1B}[2J\\u{1B}]0;owned\\u{07}"))
        #expect(tree.contains("\"Name\\u{1B}[2J\\u{1B}]0;owned\\u{07}\""))
        let discover = try HapscopeBinary.run(["discover", file.path]).standardOutput
        #expect(discover.contains("Evil"))
        #expect(discover.contains("md=Model"))
    }

    @Test("JSON carries the strings exactly, escaped as JSON requires")
    func jsonCarriesThem() throws {
        let file = try Self.capture()
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try HapscopeBinary.run(["http", "--format", "json", file.path])
        let root = try JSONDocument(bytes: Array(result.outputBytes)).root
        let request = try #require(root["events"]?.arrayValue?.first)
        #expect(request["headers"]?.arrayValue?.first?["value"]?.stringValue == Self.c1Escape)
        let tree = try HapscopeBinary.run(["tree", "--format", "json", file.path])
        let name = try JSONDocument(bytes: Array(tree.outputBytes)).root["databases"]?.arrayValue?.first?["accessories"]?
            .arrayValue?.first?["name"]?.stringValue
        #expect(name == "Name" + Self.escape)
        #expect(!tree.outputBytes.contains(0x1B), "JSON escapes control characters")
    }
}
