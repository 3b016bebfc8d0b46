import CPcap
import Packets

/// Owns one libpcap handle (`pcap_t`): closes it when released.
final class PcapHandle {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit { pcap_close(pointer) }

    /// libpcap's text for the last error on this handle (`pcap_geterr`).
    var errorText: String { String(cString: pcap_geterr(pointer)) }

    var linkType: LinkType { LinkType(rawValue: UInt32(bitPattern: pcap_datalink(pointer))) }

    /// Whether timestamps come in nanoseconds rather than microseconds.
    var hasNanosecondTimestamps: Bool { pcap_get_tstamp_precision(pointer) == Int32(PCAP_TSTAMP_PRECISION_NANO) }

    /// Compiles `expression` for this handle's link type and installs it (`pcap_compile`,
    /// `pcap_setfilter`). `netmask` matters only to filters that test for IPv4 broadcast.
    func setFilter(_ expression: String, netmask: bpf_u_int32 = PCAP_NETMASK_UNKNOWN) throws(CaptureError) {
        var program = bpf_program()
        guard pcap_compile(pointer, &program, expression, 1, netmask) == 0 else {
            throw .invalidFilter(expression: expression, reason: errorText)
        }
        defer { pcap_freecode(&program) }
        guard pcap_setfilter(pointer, &program) == 0 else {
            throw .invalidFilter(expression: expression, reason: errorText)
        }
    }

    /// Calls `body` with a PCAP_ERRBUF_SIZE buffer for libpcap's error text and returns its
    /// result with that text.
    static func withErrorBuffer<Result>(_ body: (UnsafeMutablePointer<CChar>) -> Result) -> (Result, String) {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(PCAP_ERRBUF_SIZE)) { buffer in
            buffer.initialize(repeating: 0)
            let result = body(buffer.baseAddress.unsafelyUnwrapped)
            buffer[buffer.count - 1] = 0
            return (result, String(cString: buffer.baseAddress.unsafelyUnwrapped))
        }
    }
}

extension Timestamp {
    /// The time in a libpcap packet header: seconds and a fraction in microseconds or
    /// nanoseconds. A damaged file can hold a fraction of a second or more; it is carried into
    /// the seconds rather than trusted.
    init(pcapSeconds seconds: Int, fraction: Int, isNanoseconds: Bool) {
        let unitsPerSecond = isNanoseconds ? 1_000_000_000 : 1_000_000
        if fraction >= 0 && fraction < unitsPerSecond {
            self.init(seconds: Int64(seconds), nanoseconds: UInt32(isNanoseconds ? fraction : fraction * 1_000))
            return
        }
        var (carry, remainder) = fraction.quotientAndRemainder(dividingBy: unitsPerSecond)
        if remainder < 0 {
            carry -= 1
            remainder += unitsPerSecond
        }
        let nanoseconds = isNanoseconds ? remainder : remainder * 1_000
        let (total, overflow) = Int64(seconds).addingReportingOverflow(Int64(carry))
        self.init(seconds: overflow ? (carry < 0 ? .min : .max) : total, nanoseconds: UInt32(nanoseconds))
    }
}
