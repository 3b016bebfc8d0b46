/// mDNS messages built byte by byte (RFC 1035 §4.1, RFC 6762, RFC 6763), for tests of discovery.
public enum MDNSMessages {
    /// A name in uncompressed wire form.
    public static func name(_ dotted: String) -> [UInt8] {
        dotted.split(separator: ".").flatMap { label in [UInt8(label.utf8.count)] + Array(label.utf8) } + [0]
    }

    /// A resource record: owner name, TYPE, CLASS (with the cache-flush bit), TTL, RDATA. A TTL
    /// of 0 is a goodbye (RFC 6762 §10.1).
    public static func record(_ owner: [UInt8], type: UInt16, data: [UInt8], cacheFlush: Bool = true, ttl: UInt32 = 4_500) -> [UInt8] {
        owner + Frames.bigEndian(type) + Frames.bigEndian(UInt16(cacheFlush ? 0x8001 : 0x0001)) + Frames.bigEndian(ttl)
            + Frames.bigEndian(UInt16(data.count)) + data
    }

    /// A response header announcing `answers` answers.
    public static func responseHeader(answers: UInt16) -> [UInt8] {
        [0, 0, 0x84, 0] + Frames.bigEndian(UInt16(0)) + Frames.bigEndian(answers) + [0, 0, 0, 0]
    }

    /// A query asking for the PTR records of each service type, such as `_hap._tcp.local`.
    public static func query(_ serviceTypes: [String]) -> [UInt8] {
        [0, 0, 0, 0] + Frames.bigEndian(UInt16(serviceTypes.count)) + [0, 0, 0, 0, 0, 0]
            + serviceTypes.flatMap { name($0) + Frames.bigEndian(UInt16(12)) + Frames.bigEndian(UInt16(1)) }
    }

    /// TXT data: each string with its length byte.
    public static func txt(_ entries: [String]) -> [UInt8] {
        entries.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) }
    }

    /// A `_hap._tcp` announcement: PTR, SRV (to `host` on `port`), TXT and, when given, an A
    /// record for `host`; `ttl` 0 makes it a goodbye.
    public static func advertisement(
        instance: String, host: String = "accessory.local", port: UInt16 = 51_826, txt entries: [String],
        address: [UInt8]? = nil, ttl: UInt32 = 4_500
    ) -> [UInt8] {
        let instanceName = name("\(instance)._hap._tcp.local")
        let hostName = name(host)
        let srv = [0, 0, 0, 0] + Frames.bigEndian(port) + hostName
        var records = record(name("_hap._tcp.local"), type: 12, data: instanceName, cacheFlush: false, ttl: ttl)
            + record(instanceName, type: 33, data: srv, ttl: ttl)
            + record(instanceName, type: 16, data: txt(entries), ttl: ttl)
        var answers: UInt16 = 3
        if let address {
            records += record(hostName, type: 1, data: address, ttl: ttl)
            answers += 1
        }
        return responseHeader(answers: answers) + records
    }
}
