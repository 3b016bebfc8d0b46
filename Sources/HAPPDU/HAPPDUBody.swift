import HAPCatalog
import TLV8
import WireParsing

/// Reads the TLV items of a HAP PDU body.
///
/// PDU bodies are TLV8 with HAP's fragmentation rule, but their lists separate entries with
/// zero-length items of type 0, not 0xFF, so a type recurring across entries is not an error
/// here; every other rule of the strict TLV8 reader holds. Errors are in the `tlv8` layer.
public enum HAPPDUBody {
    public static func items(_ bytes: RawSpan, baseOffset: Int, limits: TLV8Limits = .default) throws(DecodeError) -> [TLV8Item] {
        var reader = TLV8Reader(bytes, baseOffset: baseOffset, limits: limits)
        var items: [TLV8Item] = []
        var diagnostics: [TLV8Diagnostic] = []
        while let element = reader.next(recordingInto: &diagnostics) {
            if let problem = diagnostics.first(where: { !Self.isRepeatedType($0) }) { throw problem.error }
            diagnostics.removeAll()
            items.append(TLV8Item(element))
        }
        if let problem = diagnostics.first(where: { !Self.isRepeatedType($0) }) { throw problem.error }
        return items
    }

    public static func items(_ bytes: [UInt8], baseOffset: Int = 0, limits: TLV8Limits = .default) throws(DecodeError) -> [TLV8Item] {
        try items(bytes.span.bytes, baseOffset: baseOffset, limits: limits)
    }

    private static func isRepeatedType(_ diagnostic: TLV8Diagnostic) -> Bool {
        if case .repeatedType = diagnostic.kind { return true }
        return false
    }

    /// A little-endian unsigned integer item value of 1 to `maximumByteCount` bytes.
    static func integer(_ item: TLV8Item, maximumByteCount: Int, _ what: String) throws(DecodeError) -> UInt64 {
        guard !item.value.isEmpty, let value = item.littleEndianInteger(maximumByteCount: maximumByteCount) else {
            throw malformed(item, "\(what) of 1 to \(maximumByteCount) bytes, found \(item.value.count)")
        }
        return value
    }

    /// A 128-bit type UUID, sent little-endian (aiohomekit `u128`; HomeKitADK `HAPUUID` bytes).
    static func uuid(_ item: TLV8Item, _ what: String) throws(DecodeError) -> HAPUUID {
        guard item.value.count == 16 else { throw malformed(item, "a 16-byte \(what), found \(item.value.count) bytes") }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for index in 0 ..< 8 {
            low |= UInt64(item.value[index]) << (8 * UInt64(index))
            high |= UInt64(item.value[8 + index]) << (8 * UInt64(index))
        }
        return HAPUUID(high: high, low: low)
    }

    static func malformed(_ item: TLV8Item, _ expected: String) -> DecodeError {
        DecodeError(.malformed, layer: .hapPDU, offset: item.offset, expected: expected)
    }

    /// The entries of a list value: the items between zero-length type-0 separators.
    static func entries(_ items: [TLV8Item]) -> [ArraySlice<TLV8Item>] {
        items.split(omittingEmptySubsequences: false) { $0.type == HAPPDUParameterType.databaseSeparator && $0.value.isEmpty }
    }
}
