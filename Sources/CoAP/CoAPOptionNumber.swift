/// A CoAP option number, with the registry entry of the options hapscope knows (RFC 7252
/// §5.10 and §12.2, RFC 7641 Observe, RFC 7959 Block1/Block2/Size2).
public struct CoAPOptionNumber: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let ifMatch = CoAPOptionNumber(rawValue: 1)
    public static let uriHost = CoAPOptionNumber(rawValue: 3)
    public static let eTag = CoAPOptionNumber(rawValue: 4)
    public static let ifNoneMatch = CoAPOptionNumber(rawValue: 5)
    public static let observe = CoAPOptionNumber(rawValue: 6)
    public static let uriPort = CoAPOptionNumber(rawValue: 7)
    public static let locationPath = CoAPOptionNumber(rawValue: 8)
    public static let uriPath = CoAPOptionNumber(rawValue: 11)
    public static let contentFormat = CoAPOptionNumber(rawValue: 12)
    public static let maxAge = CoAPOptionNumber(rawValue: 14)
    public static let uriQuery = CoAPOptionNumber(rawValue: 15)
    public static let accept = CoAPOptionNumber(rawValue: 17)
    public static let locationQuery = CoAPOptionNumber(rawValue: 20)
    public static let block2 = CoAPOptionNumber(rawValue: 23)
    public static let block1 = CoAPOptionNumber(rawValue: 27)
    public static let size2 = CoAPOptionNumber(rawValue: 28)
    public static let proxyURI = CoAPOptionNumber(rawValue: 35)
    public static let proxyScheme = CoAPOptionNumber(rawValue: 39)
    public static let size1 = CoAPOptionNumber(rawValue: 60)

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// How an option's value is written (RFC 7252 §3.2).
    public enum Format: Hashable, Sendable {
        case empty, opaque, unsignedInteger, string
    }

    /// A registered option: its name, format, allowed length and whether it may repeat.
    public struct Definition: Hashable, Sendable {
        public var name: String
        public var format: Format
        public var lengths: ClosedRange<Int>
        public var isRepeatable: Bool
    }

    public var definition: Definition? {
        switch self {
        case .ifMatch: Definition(name: "If-Match", format: .opaque, lengths: 0 ... 8, isRepeatable: true)
        case .uriHost: Definition(name: "Uri-Host", format: .string, lengths: 1 ... 255, isRepeatable: false)
        case .eTag: Definition(name: "ETag", format: .opaque, lengths: 1 ... 8, isRepeatable: true)
        case .ifNoneMatch: Definition(name: "If-None-Match", format: .empty, lengths: 0 ... 0, isRepeatable: false)
        case .observe: Definition(name: "Observe", format: .unsignedInteger, lengths: 0 ... 3, isRepeatable: false)
        case .uriPort: Definition(name: "Uri-Port", format: .unsignedInteger, lengths: 0 ... 2, isRepeatable: false)
        case .locationPath: Definition(name: "Location-Path", format: .string, lengths: 0 ... 255, isRepeatable: true)
        case .uriPath: Definition(name: "Uri-Path", format: .string, lengths: 0 ... 255, isRepeatable: true)
        case .contentFormat: Definition(name: "Content-Format", format: .unsignedInteger, lengths: 0 ... 2, isRepeatable: false)
        case .maxAge: Definition(name: "Max-Age", format: .unsignedInteger, lengths: 0 ... 4, isRepeatable: false)
        case .uriQuery: Definition(name: "Uri-Query", format: .string, lengths: 0 ... 255, isRepeatable: true)
        case .accept: Definition(name: "Accept", format: .unsignedInteger, lengths: 0 ... 2, isRepeatable: false)
        case .locationQuery: Definition(name: "Location-Query", format: .string, lengths: 0 ... 255, isRepeatable: true)
        case .block2: Definition(name: "Block2", format: .unsignedInteger, lengths: 0 ... 3, isRepeatable: false)
        case .block1: Definition(name: "Block1", format: .unsignedInteger, lengths: 0 ... 3, isRepeatable: false)
        case .size2: Definition(name: "Size2", format: .unsignedInteger, lengths: 0 ... 4, isRepeatable: false)
        case .proxyURI: Definition(name: "Proxy-Uri", format: .string, lengths: 1 ... 1034, isRepeatable: false)
        case .proxyScheme: Definition(name: "Proxy-Scheme", format: .string, lengths: 1 ... 255, isRepeatable: false)
        case .size1: Definition(name: "Size1", format: .unsignedInteger, lengths: 0 ... 4, isRepeatable: false)
        default: nil
        }
    }

    /// RFC 7252 §5.4.6: odd numbers are critical, an unrecognised critical option fails the message.
    public var isCritical: Bool { rawValue & 1 == 1 }
    public var isUnsafe: Bool { rawValue & 2 == 2 }

    public var description: String {
        definition.map { "\($0.name) (\(rawValue))" } ?? "option \(rawValue)"
    }
}
