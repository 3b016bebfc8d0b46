import WireParsing

/// HINFO record data: two character-strings naming the host's CPU and operating system
/// (RFC 1035 §3.3.2). Some mDNS responders publish it for their host name.
public struct DNSHostInfo: Sendable, Hashable {
    public var cpu: [UInt8]
    public var operatingSystem: [UInt8]

    public init(cpu: [UInt8], operatingSystem: [UInt8]) {
        self.cpu = cpu
        self.operatingSystem = operatingSystem
    }

    /// Reads HINFO data: every byte of the cursor.
    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        let cpuLength = Int(try cursor.readUInt8("the CPU string length"))
        cpu = try cursor.readBytes(count: cpuLength, "the CPU string")
        let osLength = Int(try cursor.readUInt8("the OS string length"))
        operatingSystem = try cursor.readBytes(count: osLength, "the OS string")
    }
}
