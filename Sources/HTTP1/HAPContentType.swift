/// The media type of a body, named as HAP uses it.
///
/// HAP: §5.2 of the project's fact sheet. Read from a `Content-Type` field value: the media type
/// before any `;` parameters, compared without regard to case (RFC 9110 §8.3.1).
public enum HAPContentType: Hashable, Sendable, CustomStringConvertible {
    /// `application/pairing+tlv8`: `/pair-setup`, `/pair-verify`, `/pairings` bodies.
    case pairingTLV8
    /// `application/hap+json`: the accessory database, characteristic reads and writes, events,
    /// error bodies.
    case hapJSON
    /// `image/jpeg`: a camera snapshot answering `/resource`.
    case jpeg
    /// `application/octet-stream`: `/secure-message` HAP-PDUs.
    case octetStream
    /// Any other media type, lower-cased, without parameters.
    case other(String)

    /// Reads the media type of a `Content-Type` field value.
    public init(fieldValue: String) {
        var value = fieldValue
        self = value.withUTF8 { Self(bytes: UnsafeRawBufferPointer($0), 0 ..< $0.count) }
    }

    /// Reads the media type in `buffer[range]`, a `Content-Type` field value, without
    /// allocating for the four HAP types.
    init(bytes buffer: UnsafeRawBufferPointer, _ range: Range<Int>) {
        var end = ASCII.firstIndex(of: ASCII.semicolon, in: buffer, from: range.lowerBound, to: range.upperBound)
            ?? range.upperBound
        var start = range.lowerBound
        while start < end, ASCII.isWhitespace(buffer[start]) { start += 1 }
        while end > start, ASCII.isWhitespace(buffer[end - 1]) { end -= 1 }
        let mediaType = start ..< end
        if ASCII.equalsIgnoringCase(buffer, mediaType, "application/hap+json") {
            self = .hapJSON
        } else if ASCII.equalsIgnoringCase(buffer, mediaType, "application/pairing+tlv8") {
            self = .pairingTLV8
        } else if ASCII.equalsIgnoringCase(buffer, mediaType, "image/jpeg") {
            self = .jpeg
        } else if ASCII.equalsIgnoringCase(buffer, mediaType, "application/octet-stream") {
            self = .octetStream
        } else {
            self = .other(String(decoding: buffer[mediaType].lazy.map(ASCII.lowercased), as: UTF8.self))
        }
    }

    /// The media type as it is written.
    public var mediaType: String {
        switch self {
        case .pairingTLV8: "application/pairing+tlv8"
        case .hapJSON: "application/hap+json"
        case .jpeg: "image/jpeg"
        case .octetStream: "application/octet-stream"
        case .other(let mediaType): mediaType
        }
    }

    public var description: String { mediaType }
}
