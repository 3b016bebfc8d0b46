/// A TXT record that breaks the DNS-SD key/value rules (RFC 6763 §6).
public typealias ServiceTXTDiagnostic = DNSDiagnostic<ServiceTXTProblem>

/// What a `ServiceTXTDiagnostic` reports; its offset is that of the string concerned (for
/// `noStrings`, of the empty record data).
public enum ServiceTXTProblem: Sendable, Hashable, CustomStringConvertible {
    /// RDLENGTH zero: no strings at all (RFC 6763 §6.1 forbids sending it; read as empty).
    case noStrings
    /// A zero-length string among others. A lone empty string is the proper empty TXT
    /// record and is not reported.
    case emptyString
    /// A string that starts with `=`: no key, so it is ignored (RFC 6763 §6.4).
    case missingKey
    /// A later occurrence of a key, ignored: the first wins (RFC 6763 §6.4).
    case duplicateKey(String)
    /// A key with bytes outside printable US-ASCII (RFC 6763 §6.4).
    case keyNotPrintableASCII(String)
    /// A key longer than nine characters (RFC 6763 §6.4 says it SHOULD NOT be).
    case keyLongerThanNineCharacters(String)

    public var description: String {
        switch self {
        case .noStrings: "TXT record with no strings (RFC 6763 §6.1)"
        case .emptyString: "empty string among the TXT strings"
        case .missingKey: "string starting with '=' has no key and is ignored (RFC 6763 §6.4)"
        case .duplicateKey(let key): "key \"\(key)\" repeated; only its first occurrence counts (RFC 6763 §6.4)"
        case .keyNotPrintableASCII(let key): "key \"\(key)\" is not printable US-ASCII (RFC 6763 §6.4)"
        case .keyLongerThanNineCharacters(let key): "key \"\(key)\" is longer than nine characters (RFC 6763 §6.4)"
        }
    }
}
