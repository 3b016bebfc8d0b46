import WireParsing

/// A CoAP message (RFC 7252 §3): a 4-byte header (version 2 bits, type 2 bits, token length
/// 4 bits, code, message ID), the token, the options in delta encoding, and the payload after
/// the 0xFF marker.
///
/// Message format errors (RFC 7252 §3, §4.1) are malformed: a version other than 1, a token
/// length of 9–15, an option delta or length nibble of 15 that is not the payload marker, an
/// option number past 65,535, a payload marker with no payload, an Empty message (0.00) with
/// anything after its header. An option whose extension bytes or value the datagram does not
/// hold is truncated. Option values outside their registered lengths are kept and flagged by
/// `CoAPOption.violatesRegisteredLength`, since RFC 7252 treats them as unrecognised options,
/// not as a broken message.
public struct CoAPMessage: Hashable, Sendable {
    public static let version: UInt8 = 1
    public static let payloadMarker: UInt8 = 0xFF
    /// Options one message may hold: the bound on decoded entries for a datagram of zero-length options.
    public static let maximumOptionCount = 256

    public var type: CoAPMessageType
    public var code: CoAPCode
    public var messageID: UInt16
    public var token: CoAPToken
    /// In wire order, which is ascending option number.
    public var options: [CoAPOption]
    public var payload: [UInt8]

    public init(
        type: CoAPMessageType, code: CoAPCode, messageID: UInt16, token: CoAPToken = .empty, options: [CoAPOption] = [],
        payload: [UInt8] = []
    ) {
        self.type = type
        self.code = code
        self.messageID = messageID
        self.token = token
        self.options = options
        self.payload = payload
    }

    /// Reads one message filling the rest of `cursor` (layer `coap`): a UDP payload.
    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        let start = cursor.position
        let first = try cursor.readUInt8("the CoAP version, type and token length")
        guard first >> 6 == Self.version else {
            throw cursor.malformed("CoAP version 1, found \(first >> 6)", at: start)
        }
        type = CoAPMessageType(rawValue: first >> 4 & 0x03)!
        let tokenLength = Int(first & 0x0F)
        guard tokenLength <= CoAPToken.maximumLength else {
            throw cursor.malformed("a token length of at most 8 (9–15 are reserved), found \(tokenLength)", at: start)
        }
        code = CoAPCode(rawValue: try cursor.readUInt8("the CoAP code"))
        messageID = try cursor.readUInt16BigEndian("the CoAP message ID")
        if code.isEmpty {
            guard tokenLength == 0, cursor.isAtEnd else {
                throw cursor.malformed("nothing after the header of an Empty message (0.00), found a token length of \(tokenLength) and \(cursor.remainingCount) more bytes", at: start)
            }
            token = .empty
            options = []
            payload = []
            return
        }
        token = CoAPToken(bytes: try cursor.readBytes(count: tokenLength, "the \(tokenLength)-byte token"))
        options = []
        payload = []
        var number = 0
        while !cursor.isAtEnd {
            let optionStart = cursor.position
            let byte = try cursor.readUInt8("an option header")
            if byte == Self.payloadMarker {
                guard !cursor.isAtEnd else {
                    throw cursor.malformed("a payload after the payload marker (RFC 7252 §3: a marker with an empty payload is a format error)", at: optionStart)
                }
                payload = Array(cursor.readRemaining())
                return
            }
            guard options.count < Self.maximumOptionCount else {
                throw DecodeError(.limitExceeded, layer: cursor.layer, offset: cursor.baseOffset + optionStart, expected: "at most \(Self.maximumOptionCount) options in one message")
            }
            let delta = try Self.extended(byte >> 4, &cursor, "option delta", at: optionStart)
            let length = try Self.extended(byte & 0x0F, &cursor, "option length", at: optionStart)
            number += delta
            guard number <= Int(UInt16.max) else {
                throw cursor.malformed("an option number of at most 65535, found \(number)", at: optionStart)
            }
            let value = try cursor.readBytes(count: length, "the \(length)-byte value of option \(number)")
            options.append(CoAPOption(number: CoAPOptionNumber(rawValue: UInt16(number)), value: value, offset: cursor.baseOffset + optionStart))
        }
    }

    /// A delta or length nibble with its extension (RFC 7252 §3.1): 13 adds one byte plus 13,
    /// 14 adds two bytes plus 269, 15 is reserved.
    private static func extended(_ nibble: UInt8, _ cursor: inout ByteCursor, _ what: String, at start: Int) throws(DecodeError) -> Int {
        switch nibble {
        case 13: return Int(try cursor.readUInt8("the extended \(what) byte")) + 13
        case 14: return Int(try cursor.readUInt16BigEndian("the extended \(what) bytes")) + 269
        case 15: throw cursor.malformed("an \(what) nibble other than 15, which is reserved for the payload marker", at: start)
        default: return Int(nibble)
        }
    }

    /// The values of every option of `number`, in order.
    public func options(_ number: CoAPOptionNumber) -> [CoAPOption] {
        options.filter { $0.number == number }
    }

    public func firstOption(_ number: CoAPOptionNumber) -> CoAPOption? {
        options.first { $0.number == number }
    }

    /// The Uri-Path segments joined with `/`, with a leading `/` (`/` when there are none).
    public var uriPath: String {
        "/" + options(.uriPath).map(\.stringValue).joined(separator: "/")
    }

    /// The Block2 (response body) option, decoded; nil when absent.
    public var block2: CoAPBlockOption? {
        get throws(DecodeError) { try firstOption(.block2).map(CoAPBlockOption.init(option:)) }
    }

    /// The Block1 (request body) option, decoded; nil when absent.
    public var block1: CoAPBlockOption? {
        get throws(DecodeError) { try firstOption(.block1).map(CoAPBlockOption.init(option:)) }
    }

    /// The message's bytes; options are sorted by number, as RFC 7252 §3.1 requires.
    public var encoded: [UInt8] {
        var bytes: [UInt8] = [Self.version << 6 | type.rawValue << 4 | UInt8(token.length), code.rawValue,
                              UInt8(messageID >> 8), UInt8(truncatingIfNeeded: messageID)]
        bytes += token.bytes
        var previous = 0
        for option in options.sorted(by: { $0.number < $1.number }) {
            let delta = Int(option.number.rawValue) - previous
            previous = Int(option.number.rawValue)
            let (deltaNibble, deltaExtension) = Self.nibble(delta)
            let (lengthNibble, lengthExtension) = Self.nibble(option.value.count)
            bytes.append(deltaNibble << 4 | lengthNibble)
            bytes += deltaExtension + lengthExtension + option.value
        }
        if !payload.isEmpty { bytes += [Self.payloadMarker] + payload }
        return bytes
    }

    private static func nibble(_ value: Int) -> (UInt8, [UInt8]) {
        switch value {
        case ..<13: (UInt8(value), [])
        case ..<269: (13, [UInt8(value - 13)])
        default: (14, [UInt8((value - 269) >> 8), UInt8(truncatingIfNeeded: value - 269)])
        }
    }
}
