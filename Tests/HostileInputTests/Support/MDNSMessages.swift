import HAPCore
import HAPEvents
import TestSupport
/// mDNS messages built byte by byte (RFC 1035 §4.1, RFC 6762, RFC 6763), valid and broken.
enum MDNSMessages {
    /// A name in uncompressed wire form.
    static func name(_ dotted: String) -> [UInt8] {
        dotted.split(separator: ".").flatMap { label in [UInt8(label.utf8.count)] + Array(label.utf8) } + [0]
    }

    /// A resource record: owner name, TYPE, CLASS (with the cache-flush bit), TTL 4500, RDATA.
    static func record(_ owner: [UInt8], type: UInt16, data: [UInt8], cacheFlush: Bool = true) -> [UInt8] {
        owner + Frames.bigEndian(type) + Frames.bigEndian(UInt16(cacheFlush ? 0x8001 : 0x0001)) + Frames.bigEndian(UInt32(4_500))
            + Frames.bigEndian(UInt16(data.count)) + data
    }

    /// A response header announcing `answers` answers.
    static func responseHeader(answers: UInt16) -> [UInt8] {
        [0, 0, 0x84, 0] + Frames.bigEndian(UInt16(0)) + Frames.bigEndian(answers) + [0, 0, 0, 0]
    }

    static func txt(_ entries: [String]) -> [UInt8] {
        entries.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) }
    }

    /// An accessory announcing `_hap._tcp` with PTR, SRV, TXT and A records.
    static let hapAdvertisement: [UInt8] = {
        let instance = name("Hostile Light._hap._tcp.local")
        let host = name("hostile-light.local")
        let srv = [0, 0, 0, 0] + Frames.bigEndian(UInt16(51_826)) + host
        let entries = ["c#=2", "ff=0", "id=1A:2B:3C:4D:5E:6F", "md=Hostile Light", "pv=1.1", "s#=1", "sf=1", "ci=5"]
        return responseHeader(answers: 4)
            + record(name("_hap._tcp.local"), type: 12, data: instance, cacheFlush: false)
            + record(instance, type: 33, data: srv)
            + record(instance, type: 16, data: txt(entries))
            + record(host, type: 1, data: Frames.accessoryIPv4)
    }()

    /// One answer whose owner name is a compression pointer to itself (RFC 1035 §4.1.4 forbids
    /// nothing, but following it never ends).
    static let selfPointingName: [UInt8] = responseHeader(answers: 1) + [0xC0, 12] + [0, 1, 0, 1, 0, 0, 0, 10, 0, 4] + Frames.accessoryIPv4

    /// Two labels pointing at each other.
    static let pointerLoop: [UInt8] = responseHeader(answers: 1) + [1, 0x61, 0xC0, 12] + [0, 1, 0, 1, 0, 0, 0, 10, 0, 4] + Frames.accessoryIPv4

    /// An owner name whose pointer lies past the end of the message.
    static let pointerPastEnd: [UInt8] = responseHeader(answers: 1) + [0xC3, 0xFF] + [0, 1, 0, 1, 0, 0, 0, 10, 0, 4] + Frames.accessoryIPv4

    /// A name that points forward, to bytes after itself.
    static let forwardPointer: [UInt8] = responseHeader(answers: 1) + [0xC0, 28] + [0, 1, 0, 1, 0, 0, 0, 10, 0, 4] + Frames.accessoryIPv4 + name("x.local")

    /// A record whose RDLENGTH runs past the end of the message.
    static let dataLengthPastEnd: [UInt8] = responseHeader(answers: 1) + name("a.local") + [0, 16, 0, 1, 0, 0, 0, 10, 0xFF, 0xF0, 3, 0x61, 0x3D, 0x31]

    /// A header announcing 65535 answers in a 12-byte message.
    static let countsBeyondMessage: [UInt8] = [0, 0, 0x84, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]

    /// An advertisement whose TXT record holds bytes that are not UTF-8, in its keys and values.
    static let invalidUTF8TXT: [UInt8] = {
        let instance = name("Odd Light._hap._tcp.local")
        let host = name("odd-light.local")
        let srv = [0, 0, 0, 0] + Frames.bigEndian(UInt16(51_826)) + host
        let strings: [[UInt8]] = [Array("c#=2".utf8), Array("md=".utf8) + [0xFF, 0xFE, 0xC3], [0xC3, 0x28, 0x3D, 0x31], Array("id=1A:2B:3C:4D:5E:6F".utf8)]
        return responseHeader(answers: 4)
            + record(name("_hap._tcp.local"), type: 12, data: instance, cacheFlush: false)
            + record(instance, type: 33, data: srv)
            + record(instance, type: 16, data: strings.flatMap { [UInt8($0.count)] + $0 })
            + record(host, type: 1, data: Frames.accessoryIPv4)
    }()
}
