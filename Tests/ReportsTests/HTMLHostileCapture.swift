import Foundation
import HAPCore
import HAPEvents
import TestSupport

/// A capture whose every capture-controlled string is markup: an accessory advertised and named
/// `<script>alert(1)</script>`, TXT values with quotes and angle brackets, and an `/accessories`
/// database and characteristic read whose strings try to close attributes and elements, or are
/// simply too long to print.
///
/// It is built here, byte by byte, rather than recorded, so that each hostile string is visible
/// in the test that uses it. Everything travels in plaintext (an unverified HAP connection, which
/// hapscope decodes as the `unverified-access` capture shows), so no key log is needed.
enum HTMLHostileCapture {
    static let accessoryName = "<script>alert(1)</script>"
    static let modelTXT = "<img src=x onerror=alert(2)>"
    static let quotedTXT = "\"'&<>"
    static let manufacturer = "</td></tr><script>alert(6)</script>"
    static let serialNumber = "'onmouseover='alert(8)"
    static let description = "<b>bold</b>"
    /// A firmware revision far longer than any report should print.
    static let firmwareRevision = String(repeating: "9", count: 20_000)

    static let controller: [UInt8] = [10, 77, 0, 1]
    static let accessory: [UInt8] = [10, 77, 0, 2]
    static let mdnsGroup: [UInt8] = [224, 0, 0, 251]

    /// Writes the capture to `url`.
    static func write(to url: URL) throws {
        try Data(pcap()).write(to: url)
    }

    static func pcap() -> [UInt8] {
        var file: [UInt8] = []
        file += le32(0xA1B2_C3D4) + le16(2) + le16(4) + le32(0) + le32(0) + le32(65_535) + le32(1)
        var time: UInt32 = 0
        func record(_ frame: [UInt8]) {
            time += 1
            file += le32(1_800_000_000 + time / 10) + le32(time % 10 * 100_000) + le32(UInt32(frame.count)) + le32(UInt32(frame.count))
            file += frame
        }
        record(udp(mdnsAnnouncement(model: modelTXT, statusFlags: "1")))
        record(udp(mdnsAnnouncement(model: "<i>renamed</i>", statusFlags: "0")))

        let client: UInt16 = 49201
        var clientSequence: UInt32 = 1000
        var serverSequence: UInt32 = 5000
        func fromClient(_ flags: UInt8, _ payload: [UInt8] = []) {
            record(tcp(from: controller, client, to: accessory, 51826, sequence: clientSequence, acknowledgement: serverSequence, flags: flags, payload))
            clientSequence &+= UInt32(payload.count) + (flags & (syn | fin) != 0 ? 1 : 0)
        }
        func fromServer(_ flags: UInt8, _ payload: [UInt8] = []) {
            record(tcp(from: accessory, 51826, to: controller, client, sequence: serverSequence, acknowledgement: clientSequence, flags: flags, payload))
            serverSequence &+= UInt32(payload.count) + (flags & (syn | fin) != 0 ? 1 : 0)
        }
        fromClient(syn)
        fromServer(syn | ack)
        fromClient(ack)
        fromClient(ack | psh, Array("GET /accessories HTTP/1.1\r\nHost: hostile.local\r\n\r\n".utf8))
        fromServer(ack | psh, response(database))
        fromClient(ack | psh, Array("GET /characteristics?id=1.9 HTTP/1.1\r\nHost: hostile.local\r\n\r\n".utf8))
        fromServer(ack | psh, response(#"{"characteristics":[{"aid":1,"iid":9,"value":22.5}]}"#))
        fromClient(ack | fin)
        fromServer(ack | fin)
        fromClient(ack)
        return file
    }

    static var database: String {
        """
        {"accessories":[{"aid":1,"services":[\
        {"iid":1,"type":"3E","characteristics":[\
        {"iid":2,"type":"14","perms":["pw"],"format":"bool"},\
        {"iid":3,"type":"20","perms":["pr"],"format":"string","value":"\(json(manufacturer))"},\
        {"iid":4,"type":"21","perms":["pr"],"format":"string","value":"\(json("\"><svg onload=alert(7)>"))"},\
        {"iid":5,"type":"23","perms":["pr"],"format":"string","value":"\(json(accessoryName))"},\
        {"iid":6,"type":"30","perms":["pr"],"format":"string","value":"\(json(serialNumber))"},\
        {"iid":7,"type":"52","perms":["pr"],"format":"string","value":"\(firmwareRevision)"}]},\
        {"iid":8,"type":"8A","characteristics":[\
        {"iid":9,"type":"11","perms":["pr","ev"],"format":"float","unit":"celsius","value":21.5,"description":"\(json(description))"}]}]}]}
        """
    }

    // MARK: mDNS

    /// An unsolicited response announcing the accessory (RFC 6762 §8.3): PTR, SRV, TXT and A.
    private static func mdnsAnnouncement(model: String, statusFlags: String) -> [UInt8] {
        let service = name(["_hap", "_tcp", "local"])
        let instance = name([accessoryName, "_hap", "_tcp", "local"])
        let host = name(["hostile", "local"])
        let txt = [
            "c#=1", "ff=0", "id=1A:2B:3C:4D:5E:6F", "md=\(model)", "pv=1.1", "s#=1", "sf=\(statusFlags)", "ci=2",
            "x=\(quotedTXT)",
        ].flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) }
        var message: [UInt8] = be16(0) + be16(0x8400) + be16(0) + be16(4) + be16(0) + be16(0)
        message += resourceRecord(service, type: 12, cacheFlush: false, ttl: 4500, instance)
        message += resourceRecord(instance, type: 33, cacheFlush: true, ttl: 120, be16(0) + be16(0) + be16(51826) + host)
        message += resourceRecord(instance, type: 16, cacheFlush: true, ttl: 4500, txt)
        message += resourceRecord(host, type: 1, cacheFlush: true, ttl: 120, accessory)
        return message
    }

    private static func name(_ labels: [String]) -> [UInt8] {
        labels.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) } + [0]
    }

    private static func resourceRecord(_ owner: [UInt8], type: UInt16, cacheFlush: Bool, ttl: UInt32, _ data: [UInt8]) -> [UInt8] {
        owner + be16(type) + be16(cacheFlush ? 0x8001 : 0x0001) + be32(ttl) + be16(UInt16(data.count)) + data
    }

    // MARK: HTTP

    private static func response(_ body: String) -> [UInt8] {
        Array("HTTP/1.1 200 OK\r\nContent-Type: application/hap+json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
    }

    private static func json(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }

    // MARK: Ethernet, IPv4, UDP, TCP

    private static let fin: UInt8 = 0x01
    private static let syn: UInt8 = 0x02
    private static let psh: UInt8 = 0x08
    private static let ack: UInt8 = 0x10

    private static func udp(_ payload: [UInt8]) -> [UInt8] {
        let datagram = be16(5353) + be16(5353) + be16(UInt16(8 + payload.count)) + be16(0) + payload
        return ethernet(ipv4(protocol: 17, from: accessory, to: mdnsGroup, datagram))
    }

    private static func tcp(
        from source: [UInt8], _ sourcePort: UInt16, to destination: [UInt8], _ destinationPort: UInt16,
        sequence: UInt32, acknowledgement: UInt32, flags: UInt8, _ payload: [UInt8]
    ) -> [UInt8] {
        var segment = be16(sourcePort) + be16(destinationPort) + be32(sequence) + be32(flags & ack != 0 ? acknowledgement : 0)
        segment += [0x50, flags] + be16(65_535) + be16(0) + be16(0) + payload
        let pseudoHeader = source + destination + [0, 6] + be16(UInt16(segment.count))
        let checksum = internetChecksum(pseudoHeader + segment)
        segment[16] = UInt8(checksum >> 8)
        segment[17] = UInt8(checksum & 0xFF)
        return ethernet(ipv4(protocol: 6, from: source, to: destination, segment))
    }

    private static func ipv4(protocol ipProtocol: UInt8, from source: [UInt8], to destination: [UInt8], _ payload: [UInt8]) -> [UInt8] {
        var header = [0x45, 0] + be16(UInt16(20 + payload.count)) + be16(0) + be16(0x4000) + [64, ipProtocol] + be16(0) + source + destination
        let checksum = internetChecksum(header)
        header[10] = UInt8(checksum >> 8)
        header[11] = UInt8(checksum & 0xFF)
        return header + payload
    }

    private static func ethernet(_ packet: [UInt8]) -> [UInt8] {
        [0x02, 0, 0, 0, 0, 0x01, 0x02, 0, 0, 0, 0, 0x02] + be16(0x0800) + packet
    }

    /// RFC 1071.
    private static func internetChecksum(_ bytes: [UInt8]) -> UInt16 {
        var sum: UInt32 = 0
        var index = 0
        while index + 1 < bytes.count {
            sum += UInt32(bytes[index]) << 8 | UInt32(bytes[index + 1])
            index += 2
        }
        if index < bytes.count { sum += UInt32(bytes[index]) << 8 }
        while sum > 0xFFFF { sum = (sum & 0xFFFF) + (sum >> 16) }
        return ~UInt16(sum)
    }

    private static func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    private static func be32(_ value: UInt32) -> [UInt8] { be16(UInt16(value >> 16)) + be16(UInt16(value & 0xFFFF)) }
    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private static func le32(_ value: UInt32) -> [UInt8] { le16(UInt16(value & 0xFFFF)) + le16(UInt16(value >> 16)) }
}
