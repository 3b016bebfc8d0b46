import Foundation
import WireParsing
@testable import TLV8

/// The corpus files in `Fixtures/`, read next to this source file so the tests need no bundle.
enum Fixture: String, CaseIterable {
    case pairSetupM2 = "pair_setup_m2"
    case pairSetupM3 = "pair_setup_m3"
    case pairVerifyM2 = "pair_verify_m2"
    case listPairingsM2 = "list_pairings_m2"

    var bytes: [UInt8] {
        get throws {
            let url = URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent()
                .appendingPathComponent("Fixtures/\(rawValue).tlv8")
            return Array(try Data(contentsOf: url))
        }
    }
}

func decodeStrictly(_ bytes: [UInt8], baseOffset: Int = 0, limits: TLV8Limits = .default) throws(DecodeError) -> TLV8Body {
    var cursor = ByteCursor(bytes.span.bytes, layer: .tlv8, baseOffset: baseOffset)
    return try TLV8Body(parsing: &cursor, limits: limits)
}

func decodeLeniently(_ bytes: [UInt8], baseOffset: Int = 0, limits: TLV8Limits = .default) -> TLV8Body {
    var cursor = ByteCursor(bytes.span.bytes, layer: .tlv8, baseOffset: baseOffset)
    return TLV8Body(parsingLeniently: &cursor, limits: limits)
}

/// The error a strict decode throws, or nil when it succeeds.
func strictError(_ bytes: [UInt8], limits: TLV8Limits = .default) -> DecodeError? {
    do {
        _ = try decodeStrictly(bytes, limits: limits)
        return nil
    } catch {
        return error
    }
}

/// Bytes from hex written with spaces for readability.
func hex(_ text: String) -> [UInt8] {
    Hex.decode(text.filter { !$0.isWhitespace }) ?? []
}

/// `count` bytes counting up from `start`, wrapping: values whose fragments are easy to tell apart.
func ramp(_ count: Int, from start: UInt8 = 0) -> [UInt8] {
    (0 ..< count).map { start &+ UInt8(truncatingIfNeeded: $0) }
}

/// One unfragmented item, written by hand so tests of decoding do not lean on the encoder.
func tlv(_ type: TLV8Type, _ value: [UInt8]) -> [UInt8] {
    precondition(value.count <= 255, "tlv(_:_:) writes single fragments only")
    return [type.rawValue, UInt8(value.count)] + value
}

/// Decodes `bytes` leniently as the body of a pairing message.
func body(_ bytes: [UInt8]) -> TLV8Body {
    decodeLeniently(bytes)
}
