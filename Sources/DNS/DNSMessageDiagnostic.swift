import WireParsing

/// Something wrong in a DNS message that a lenient decode stepped over.
public typealias DNSMessageDiagnostic = DNSDiagnostic<DNSMessageProblem>

/// What a `DNSMessageDiagnostic` reports; its offset is that of the record or bytes concerned.
public enum DNSMessageProblem: Sendable, Hashable, CustomStringConvertible {
    /// The record's data fits its RDLENGTH but not its type; the record keeps the bytes.
    case undecodableRecordData(type: DNSRecordType, reason: DecodeError)
    /// Bytes after the last record the header counts.
    case trailingBytes(count: Int)
    /// An OPT record in the answer or authority section (RFC 6891 §6.1.1).
    case optionRecordOutsideAdditionalSection
    /// A second OPT record (RFC 6891 §6.1.1: at most one).
    case repeatedOptionRecord

    public var description: String {
        switch self {
        case .undecodableRecordData(let type, let reason): "\(type) record data does not fit its type: \(reason)"
        case .trailingBytes(let count): "\(count) bytes after the last record the header counts"
        case .optionRecordOutsideAdditionalSection: "OPT record outside the additional section (RFC 6891 §6.1.1)"
        case .repeatedOptionRecord: "more than one OPT record (RFC 6891 §6.1.1)"
        }
    }
}
