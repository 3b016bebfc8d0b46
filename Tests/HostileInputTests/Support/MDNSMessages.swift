import TestSupport

/// The mDNS messages of the hostile-input tests: one valid announcement to recover with, and
/// messages broken in every way a name or a record can be.
extension MDNSMessages {
    /// An accessory announcing `_hap._tcp` with PTR, SRV, TXT and A records.
    static let hapAdvertisement = advertisement(
        instance: "Hostile Light", host: "hostile-light.local",
        txt: ["c#=2", "ff=0", "id=1A:2B:3C:4D:5E:6F", "md=Hostile Light", "pv=1.1", "s#=1", "sf=1", "ci=5"], address: Frames.accessoryIPv4)

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
