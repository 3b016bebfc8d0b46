import WireParsing

/// A decoded TLV8 body: its items in wire order and, from a lenient decode, everything a
/// strict reader would have rejected.
///
/// This is the owned form, for values that outlive the input (events, reports). For a pass
/// that only looks at items, `TLV8Reader` reads the same bytes without allocating.
public struct TLV8Body: Sendable, Hashable {
    /// The items in wire order, fragments joined.
    public var items: [TLV8Item]
    /// What a strict decode would have thrown at, in wire order; empty after a strict decode.
    public var diagnostics: [TLV8Diagnostic]
    /// The absolute offset of the body's first byte.
    public var offset: Int

    public init(items: [TLV8Item], diagnostics: [TLV8Diagnostic] = [], offset: Int = 0) {
        self.items = items
        self.diagnostics = diagnostics
        self.offset = offset
    }

    /// Decodes every remaining byte of `cursor` as one body, throwing `DecodeError` (layer
    /// `tlv8`) at the first problem a strict reader rejects (see `TLV8Reader.next()`).
    public init(parsing cursor: inout ByteCursor, limits: TLV8Limits = .default) throws(DecodeError) {
        let offset = cursor.offset
        let bytes = cursor.readRemaining()
        var reader = TLV8Reader(bytes, baseOffset: offset, limits: limits)
        var items: [TLV8Item] = []
        items.reserveCapacity(Self.itemCapacity(bytes, limits: limits))
        while let element = try reader.next() {
            items.append(TLV8Item(element))
        }
        self.init(items: items, offset: offset)
    }

    /// Decodes every remaining byte of `cursor` as one body, keeping every item that can be
    /// read and recording each problem in `diagnostics` (see `TLV8Reader.next(recordingInto:)`).
    public init(parsingLeniently cursor: inout ByteCursor, limits: TLV8Limits = .default) {
        let offset = cursor.offset
        let bytes = cursor.readRemaining()
        var reader = TLV8Reader(bytes, baseOffset: offset, limits: limits)
        var items: [TLV8Item] = []
        items.reserveCapacity(Self.itemCapacity(bytes, limits: limits))
        var diagnostics: [TLV8Diagnostic] = []
        while let element = reader.next(recordingInto: &diagnostics) {
            items.append(TLV8Item(element))
        }
        self.init(items: items, diagnostics: diagnostics, offset: offset)
    }

    /// An upper bound on the items a read of `bytes` yields: the fragment headers, skipped by
    /// their lengths without checking anything else. Reserving it allocates `items` once instead
    /// of growing it item by item, which cost two reallocations for a three-item body.
    private static func itemCapacity(_ bytes: RawSpan, limits: TLV8Limits) -> Int {
        var position = 0
        var headers = 0
        while position + 1 < bytes.byteCount, headers < limits.maximumItemCount {
            position += 2 + Int(bytes.unsafeLoad(fromByteOffset: position + 1, as: UInt8.self))
            headers += 1
        }
        return headers
    }

    /// The first item of `type`.
    public func first(_ type: TLV8Type) -> TLV8Item? {
        items.first { $0.type == type }
    }

    /// The list entries: the items between separators, separators left out. A body without
    /// separators is one entry; a separator at either end makes an empty entry. (Two adjacent
    /// separators are one fragmented item, which the decode notes.)
    public var entries: [ArraySlice<TLV8Item>] {
        items.split(omittingEmptySubsequences: false) { $0.type == .separator }
    }

    /// The body re-encoded, items in order, each value fragmented as HAP requires.
    public func encoded() -> [UInt8] {
        var writer = TLV8Writer()
        for item in items {
            writer.append(item.type, item.value)
        }
        return writer.bytes
    }
}
