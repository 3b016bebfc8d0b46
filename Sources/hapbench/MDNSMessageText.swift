/// mDNS messages of the generated capture: an accessory's announcement and a controller's
/// browse query (RFC 6762, RFC 6763, PROTOCOL §7). Names are written uncompressed.
enum MDNSMessageText {
    static let port: UInt16 = 5353
    /// 224.0.0.251 (RFC 6762 §3).
    static let groupAddress: UInt32 = 0xE000_00FB
    private static let serviceType = ["_hap", "_tcp", "local"]
    private static let classInternet: UInt16 = 1
    /// RFC 6762 §10.2: the cache-flush bit on records that only their owner answers for.
    private static let classInternetCacheFlush: UInt16 = 0x8001

    /// A response announcing the accessory: PTR, SRV, TXT and A records.
    static func announcement(of accessory: GeneratedAccessory) -> [UInt8] {
        var message = header(flags: 0x8400, questions: 0, answers: 4)
        let instance = [accessory.name] + serviceType
        let host = [String(accessory.hostName.dropLast(".local".count)), "local"]
        record(&message, name: serviceType, type: 12, class: classInternet, ttl: 4_500, data: name(instance))
        var service: [UInt8] = [0, 0, 0, 0]
        append(&service, UInt16(accessory.endpoint.port))
        service += name(host)
        record(&message, name: instance, type: 33, class: classInternetCacheFlush, ttl: 120, data: service)
        let txt = [
            "c#=\(accessory.configurationNumber)", "ff=0", "id=\(accessory.deviceID)", "md=\(accessory.name)",
            "pv=1.1", "s#=1", "sf=0", "ci=2",
        ]
        var strings: [UInt8] = []
        for entry in txt {
            strings.append(UInt8(entry.utf8.count))
            strings += Array(entry.utf8)
        }
        record(&message, name: instance, type: 16, class: classInternetCacheFlush, ttl: 4_500, data: strings)
        var address: [UInt8] = []
        append(&address, UInt16(accessory.endpoint.address >> 16))
        append(&address, UInt16(truncatingIfNeeded: accessory.endpoint.address))
        record(&message, name: host, type: 1, class: classInternetCacheFlush, ttl: 120, data: address)
        return message
    }

    /// A query for `_hap._tcp.local` PTR records.
    static let browseQuery: [UInt8] = {
        var message = header(flags: 0, questions: 1, answers: 0)
        message += name(serviceType)
        append(&message, 12)
        append(&message, classInternet)
        return message
    }()

    private static func header(flags: UInt16, questions: UInt16, answers: UInt16) -> [UInt8] {
        var header: [UInt8] = [0, 0]
        append(&header, flags)
        append(&header, questions)
        append(&header, answers)
        append(&header, 0)
        append(&header, 0)
        return header
    }

    private static func record(_ message: inout [UInt8], name labels: [String], type: UInt16, class recordClass: UInt16, ttl: UInt32, data: [UInt8]) {
        message += name(labels)
        append(&message, type)
        append(&message, recordClass)
        append(&message, UInt16(ttl >> 16))
        append(&message, UInt16(truncatingIfNeeded: ttl))
        append(&message, UInt16(data.count))
        message += data
    }

    private static func name(_ labels: [String]) -> [UInt8] {
        var bytes: [UInt8] = []
        for label in labels {
            bytes.append(UInt8(label.utf8.count))
            bytes += Array(label.utf8)
        }
        bytes.append(0)
        return bytes
    }

    private static func append(_ bytes: inout [UInt8], _ value: UInt16) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }
}
