/// mDNS messages built byte by byte from documented examples.
///
/// The HAP records follow the layout Apple's mDNSResponder announces (answers PTR, SRV, TXT;
/// additionals A, AAAA and the two NSECs of RFC 6762 §6.1), with the TTLs HomeKit accessories
/// use (4500 s for PTR/TXT, 120 s for SRV and addresses) and the TXT keys of the HAP fact sheet
/// (PROTOCOL.md §7). The setup hash `yf4bzw==` is HomeKitADK's test vector for setup ID `7OSX`
/// and device ID `E1:91:1A:70:85:AA`. The Matter records follow the Matter SDK's
/// minimal-mDNS advertiser (connectedhomeip `src/lib/dnssd`) with its example app defaults:
/// discriminator 3840, vendor 0xFFF1, product 0x8001. tshark decodes each message to the
/// records named in the comments.
enum Fixtures {
    /// A HAP accessory announcing itself: 268 bytes.
    static let hapAnnouncement: [UInt8] = {
        let header = Wire.header(flags: Wire.responseFlags, answers: 3, additionals: 4)
        // 12: _hap._tcp.local PTR Living Room Lamp._hap._tcp.local (instance label at 39)
        let ptr = Wire.record(
            Wire.name("_hap", "_tcp", "local"), type: Wire.typePTR, ttl: 4500,
            data: Wire.labels("Living Room Lamp") + Wire.pointer(12))
        // 58: SRV 0 0 51827 Living-Room-Lamp.local (host label at 76, "local" at 22)
        let srv = Wire.record(
            Wire.pointer(39), type: Wire.typeSRV, class: Wire.classINFlush, ttl: 120,
            data: Wire.u16(0) + Wire.u16(0) + Wire.u16(51827) + Wire.labels("Living-Room-Lamp") + Wire.pointer(22))
        // 95: TXT, data at 107
        let txt = Wire.record(
            Wire.pointer(39), type: Wire.typeTXT, class: Wire.classINFlush, ttl: 4500,
            data: Wire.txt(
                "c#=2", "ff=0", "id=E1:91:1A:70:85:AA", "md=Lamp1,1", "pv=1.1", "s#=1", "sf=1", "ci=5", "sh=yf4bzw=="))
        // 183: A 192.168.1.42
        let a = Wire.record(Wire.pointer(76), type: Wire.typeA, class: Wire.classINFlush, ttl: 120, data: [192, 168, 1, 42])
        // 199: AAAA fe80::1c2a:3bff:fe4c:5d6e
        let aaaa = Wire.record(
            Wire.pointer(76), type: Wire.typeAAAA, class: Wire.classINFlush, ttl: 120,
            data: [0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0x1C, 0x2A, 0x3B, 0xFF, 0xFE, 0x4C, 0x5D, 0x6E])
        // 227: NSEC for the instance: only TXT (16) and SRV (33) exist
        let instanceNSEC = Wire.record(
            Wire.pointer(39), type: Wire.typeNSEC, class: Wire.classINFlush, ttl: 4500,
            data: Wire.pointer(39) + [0x00, 0x05, 0x00, 0x00, 0x80, 0x00, 0x40])
        // 248: NSEC for the host: only A (1) and AAAA (28) exist
        let hostNSEC = Wire.record(
            Wire.pointer(76), type: Wire.typeNSEC, class: Wire.classINFlush, ttl: 120,
            data: Wire.pointer(76) + [0x00, 0x04, 0x40, 0x00, 0x00, 0x08])
        return header + ptr + srv + txt + a + aaaa + instanceNSEC + hostNSEC
    }()

    /// The same accessory leaving the network: PTR, SRV and TXT with TTL 0 (RFC 6762 §10.1).
    static let hapGoodbye: [UInt8] = {
        let header = Wire.header(flags: Wire.responseFlags, answers: 3)
        let ptr = Wire.record(
            Wire.name("_hap", "_tcp", "local"), type: Wire.typePTR, ttl: 0,
            data: Wire.labels("Living Room Lamp") + Wire.pointer(12))
        let srv = Wire.record(
            Wire.pointer(39), type: Wire.typeSRV, class: Wire.classINFlush, ttl: 0,
            data: Wire.u16(0) + Wire.u16(0) + Wire.u16(51827) + Wire.labels("Living-Room-Lamp") + Wire.pointer(22))
        let txt = Wire.record(
            Wire.pointer(39), type: Wire.typeTXT, class: Wire.classINFlush, ttl: 0,
            data: Wire.txt("c#=2", "ff=0", "id=E1:91:1A:70:85:AA", "md=Lamp1,1", "pv=1.1", "s#=1", "sf=1", "ci=5"))
        return header + ptr + srv + txt
    }()

    /// A controller browsing for HAP accessories, asking for a unicast reply (QU) and listing
    /// the accessory it already knows (RFC 6762 §5.4, §7.1).
    static let hapBrowseQuery: [UInt8] = {
        let header = Wire.header(flags: 0x0000, questions: 1, answers: 1)
        // 12: _hap._tcp.local PTR? QU
        let question = Wire.question(Wire.name("_hap", "_tcp", "local"), type: Wire.typePTR, class: Wire.classINUnicast)
        // 33: known answer, with 4000 s of its 4500 left
        let knownAnswer = Wire.record(
            Wire.pointer(12), type: Wire.typePTR, ttl: 4000, data: Wire.labels("Living Room Lamp") + Wire.pointer(12))
        return header + question + knownAnswer
    }()

    /// A Matter device in commissioning mode: PTRs for the service and its `_L`, `_S`, `_V`,
    /// `_CM` subtypes, SRV on port 5540, TXT, AAAA.
    static let matterCommissionable: [UInt8] = {
        let header = Wire.header(flags: Wire.responseFlags, answers: 5, additionals: 3)
        // 12: _matterc._udp.local PTR C326A1B8E4E1F3D2._matterc._udp.local (instance at 43)
        let servicePTR = Wire.record(
            Wire.name("_matterc", "_udp", "local"), type: Wire.typePTR, ttl: 4500,
            data: Wire.labels("C326A1B8E4E1F3D2") + Wire.pointer(12))
        // 62: _L3840._sub._matterc._udp.local PTR instance
        let longPTR = Wire.record(
            Wire.labels("_L3840", "_sub") + Wire.pointer(12), type: Wire.typePTR, ttl: 4500, data: Wire.pointer(43))
        let shortPTR = Wire.record(
            Wire.labels("_S15") + Wire.pointer(69), type: Wire.typePTR, ttl: 4500, data: Wire.pointer(43))
        let vendorPTR = Wire.record(
            Wire.labels("_V65521") + Wire.pointer(69), type: Wire.typePTR, ttl: 4500, data: Wire.pointer(43))
        let modePTR = Wire.record(
            Wire.labels("_CM") + Wire.pointer(69), type: Wire.typePTR, ttl: 4500, data: Wire.pointer(43))
        let srv = Wire.record(
            Wire.pointer(43), type: Wire.typeSRV, class: Wire.classINFlush, ttl: 120,
            data: Wire.u16(0) + Wire.u16(0) + Wire.u16(5540) + Wire.labels("E45F0149AE3F") + Wire.pointer(26))
        let txt = Wire.record(
            Wire.pointer(43), type: Wire.typeTXT, class: Wire.classINFlush, ttl: 4500,
            data: Wire.txt(
                "D=3840", "VP=65521+32769", "CM=1", "DT=257", "DN=Test Bulb", "SII=5000", "SAI=300", "SAT=4000",
                "T=6", "PH=33"))
        let aaaa = Wire.record(
            Wire.labels("E45F0149AE3F") + Wire.pointer(26), type: Wire.typeAAAA, class: Wire.classINFlush, ttl: 120,
            data: [0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0xE6, 0x5F, 0x01, 0xFF, 0xFE, 0x49, 0xAE, 0x3F])
        return header + servicePTR + longPTR + shortPTR + vendorPTR + modePTR + srv + txt + aaaa
    }()
}
