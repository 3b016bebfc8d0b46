/// The first byte of every HAP PDU (HAP: HAP-BLE PDU Format, Control Field; HomeKitADK
/// `HAPBLEPDU.c`, `DeserializeControlField`):
///
/// | bit | meaning |
/// |---|---|
/// | 7 | 0 first fragment (or unfragmented), 1 continuation |
/// | 6–5 | reserved, 0 |
/// | 4 | instance ID size: 0 16-bit, 1 64-bit |
/// | 3–1 | PDU type: 000 request, 001 response |
/// | 0 | control field length: 0 one byte |
///
/// aiohomekit's CoAP client checks responses with `control & 0x0E == 0x02`
/// (`controller/coap/pdu.py`).
public struct HAPPDUControlField: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public enum PDUType: Hashable, Sendable {
        case request, response
    }

    public init(type: PDUType, isContinuation: Bool = false, uses64BitInstanceIDs: Bool = false) {
        rawValue = (isContinuation ? 0x80 : 0) | (uses64BitInstanceIDs ? 0x10 : 0) | (type == .response ? 0x02 : 0)
    }

    public var isContinuation: Bool { rawValue & 0x80 != 0 }
    public var uses64BitInstanceIDs: Bool { rawValue & 0x10 != 0 }
    /// Bits 3–1; nil for the six values HAP does not define.
    public var type: PDUType? {
        switch rawValue & 0x0E {
        case 0x00: .request
        case 0x02: .response
        default: nil
        }
    }
    /// Bits 6–5 set, which HomeKitADK rejects.
    public var hasReservedBits: Bool { rawValue & 0x60 != 0 }
    /// Bit 0 set: a control field longer than one byte, which no HAP version defines.
    public var hasExtendedLength: Bool { rawValue & 0x01 != 0 }

    public var description: String {
        let kind = type.map { $0 == .request ? "request" : "response" } ?? "type \(rawValue >> 1 & 0x07)"
        return "\(kind)\(isContinuation ? " continuation" : "")\(uses64BitInstanceIDs ? ", 64-bit IIDs" : "") (0x\(String(rawValue, radix: 16)))"
    }
}
