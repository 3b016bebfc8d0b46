import DNS
import Testing
import WireParsing

/// Spells DNS wire bytes field by field, so that fixtures read like the RFC 1035 §4.1
/// diagrams they follow.
enum Wire {
    static func u16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }

    static func u32(_ value: UInt32) -> [UInt8] { u16(UInt16(value >> 16)) + u16(UInt16(value & 0xFFFF)) }

    /// Length-prefixed labels without the terminating root label, to be followed by a pointer.
    static func labels(_ labels: String...) -> [UInt8] {
        labels.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) }
    }

    /// A complete uncompressed name.
    static func name(_ labels: String...) -> [UInt8] {
        labels.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) } + [0]
    }

    /// A compression pointer to `offset` (RFC 1035 §4.1.4).
    static func pointer(_ offset: Int) -> [UInt8] { [0xC0 | UInt8(offset >> 8), UInt8(offset & 0xFF)] }

    static func header(id: UInt16 = 0, flags: UInt16, questions: UInt16 = 0, answers: UInt16 = 0,
                       authorities: UInt16 = 0, additionals: UInt16 = 0) -> [UInt8] {
        u16(id) + u16(flags) + u16(questions) + u16(answers) + u16(authorities) + u16(additionals)
    }

    static func question(_ owner: [UInt8], type: UInt16, class classField: UInt16 = 1) -> [UInt8] {
        owner + u16(type) + u16(classField)
    }

    static func record(_ owner: [UInt8], type: UInt16, class classField: UInt16 = 1, ttl: UInt32, data: [UInt8]) -> [UInt8] {
        owner + u16(type) + u16(classField) + u32(ttl) + u16(UInt16(data.count)) + data
    }

    /// TXT data: each string with its length byte (RFC 1035 §3.3.14).
    static func txt(_ strings: String...) -> [UInt8] {
        strings.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) }
    }

    static let typeA: UInt16 = 1, typeCNAME: UInt16 = 5, typePTR: UInt16 = 12, typeHINFO: UInt16 = 13
    static let typeTXT: UInt16 = 16, typeAAAA: UInt16 = 28, typeSRV: UInt16 = 33, typeOPT: UInt16 = 41
    static let typeNSEC: UInt16 = 47, typeANY: UInt16 = 255
    /// CLASS IN with the mDNS cache-flush bit (RFC 6762 §10.2).
    static let classINFlush: UInt16 = 0x8001
    /// QCLASS IN with the mDNS unicast-response bit (RFC 6762 §5.4).
    static let classINUnicast: UInt16 = 0x8001
    /// QR and AA: an mDNS response (RFC 6762 §18.2, §18.4).
    static let responseFlags: UInt16 = 0x8400
}

func decodeMessage(_ bytes: [UInt8], options: DNSDecodingOptions = DNSDecodingOptions()) throws(DecodeError) -> DNSMessage {
    try DNSMessage(parsing: bytes.span.bytes, options: options)
}

/// The `DecodeError` `body` throws, or nil when it returns.
func thrownError(_ body: () throws -> Void) -> DecodeError? {
    do {
        try body()
        return nil
    } catch let error as DecodeError {
        return error
    } catch {
        Issue.record("threw \(error), not a DecodeError")
        return nil
    }
}

/// The name spelled by master-file `text`, which the test knows to be valid.
func dnsName(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> DNSName {
    try #require(DNSName(text), sourceLocation: sourceLocation)
}
