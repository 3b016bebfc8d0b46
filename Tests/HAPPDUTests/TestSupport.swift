import TLV8
import WireParsing
@testable import HAPPDU

func hex(_ text: String) -> [UInt8] {
    Hex.decode(text.filter { !$0.isWhitespace }) ?? []
}

func decode<Value>(
    _ bytes: [UInt8], layer: DecodeError.Layer = .hapPDU, _ parse: (inout ByteCursor) throws(DecodeError) -> Value
) -> Result<Value, DecodeError> {
    var cursor = ByteCursor(bytes.span.bytes, layer: layer)
    do {
        return .success(try parse(&cursor))
    } catch {
        return .failure(error)
    }
}

extension Result {
    var value: Success? { try? get() }
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

func pdu(_ bytes: [UInt8]) -> Result<HAPPDU, DecodeError> {
    decode(bytes) { (cursor) throws(DecodeError) in try HAPPDU(parsing: &cursor) }
}

/// One TLV item; values above 255 bytes fragmented as TLV8 requires.
func tlv(_ type: UInt8, _ value: [UInt8]) -> [UInt8] {
    var writer = TLV8Writer()
    writer.append(TLV8Type(type), value)
    return writer.bytes
}

/// A little-endian 16-bit value.
func le16(_ value: UInt16) -> [UInt8] {
    [UInt8(truncatingIfNeeded: value), UInt8(value >> 8)]
}

/// A HAP type UUID as the PDU bodies send it: 16 bytes, little-endian (aiohomekit `u128`).
func hapType(_ short: UInt32) -> [UInt8] {
    hex("91 52 76 bb 26 00 00 80 00 10 00 00") + [UInt8(truncatingIfNeeded: short), UInt8(truncatingIfNeeded: short >> 8),
                                                 UInt8(truncatingIfNeeded: short >> 16), UInt8(short >> 24)]
}
