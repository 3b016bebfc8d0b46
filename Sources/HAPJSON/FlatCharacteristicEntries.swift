import WireParsing

extension JSONReader {
    /// The entries of a `{"characteristics":[…]}` body in the shape nearly every event, read and
    /// write response has: flat objects with only `aid`, `iid`, `value`, `status` and `ev`, each at
    /// most once, with scalar values. Read without building a JSON tree, they cost a fraction of
    /// the full decode, which matters because such bodies are most of a HAP session.
    ///
    /// Nil for any other body — other keys, nested values, positive or fractional statuses,
    /// numeric `ev`, errors, limits — which the caller decodes with the full reader. The fast path
    /// only ever accepts input on which the full decode gives the same entries and no diagnostics,
    /// so both paths agree on every body.
    static func flatCharacteristicEntries(in cursor: borrowing ByteCursor, limits: JSONLimits) -> [CharacteristicEntry]? {
        let bytes = cursor.bytes.extracting(cursor.position ..< cursor.bytes.byteCount)
        guard bytes.byteCount <= limits.maximumDocumentSize, limits.maximumDepth >= 3 else { return nil }
        var reader = JSONReader(limits: limits, baseOffset: cursor.offset)
        return try? reader.readFlatEntries(bytes)
    }

    /// Reads the body, throwing (to give up) at anything outside the accepted shape.
    private mutating func readFlatEntries(_ bytes: RawSpan) throws(DecodeError) -> [CharacteristicEntry] {
        var position = 0
        try expect("{", bytes, &position)
        try countValue(at: position)
        try expectCharacteristicsKey(bytes, &position)
        try expect("[", bytes, &position)
        try countValue(at: position)
        var entries: [CharacteristicEntry] = []
        // Most bodies name one to four characteristics: one allocation instead of three.
        entries.reserveCapacity(4)
        skipWhitespace(bytes, &position)
        if position < bytes.byteCount, Self.byte(bytes, position) == UInt8(ascii: "]") {
            position += 1
        } else {
            repeat {
                entries.append(try readFlatEntry(bytes, &position))
            } while try !endsAfterElement("]", bytes, &position)
        }
        try expect("}", bytes, &position)
        skipWhitespace(bytes, &position)
        guard position == bytes.byteCount else { throw malformed("the end of the body", at: position) }
        return entries
    }

    private enum FlatKey: UInt8 {
        case aid = 1, iid = 2, value = 4, status = 8, ev = 16
    }

    private mutating func readFlatEntry(_ bytes: RawSpan, _ position: inout Int) throws(DecodeError) -> CharacteristicEntry {
        skipWhitespace(bytes, &position)
        let objectOffset = baseOffset + position
        try expect("{", bytes, &position)
        try countValue(at: position)
        var seen: UInt8 = 0
        var aid: UInt64 = 0, iid: UInt64 = 0
        var value: JSONValue?
        var status: HAPStatus?
        var eventsEnabled: Bool?
        repeat {
            let key = try readFlatKey(bytes, &position)
            guard seen & key.rawValue == 0 else { throw malformed("each key once", at: position) }
            seen |= key.rawValue
            skipWhitespace(bytes, &position)
            guard position < bytes.byteCount else { throw truncated("a value", at: position) }
            switch key {
            case .aid, .iid:
                let id = try readInstanceID(bytes, &position)
                if key == .aid { aid = id } else { iid = id }
            case .value:
                value = try readScalar(bytes, &position)
            case .status:
                guard let code = try readScalar(bytes, &position).numberValue?.int64Value, code <= 0 else {
                    throw malformed("a HAP status", at: position)
                }
                status = HAPStatus(wireValue: code)
            case .ev:
                guard let bool = try readScalar(bytes, &position).boolValue else { throw malformed("true or false", at: position) }
                eventsEnabled = bool
            }
        } while try !endsAfterElement("}", bytes, &position)
        guard seen & (FlatKey.aid.rawValue | FlatKey.iid.rawValue) == FlatKey.aid.rawValue | FlatKey.iid.rawValue else {
            throw malformed("an aid and an iid", at: position)
        }
        var entry = CharacteristicEntry(id: CharacteristicID(aid: aid, iid: iid), offset: objectOffset)
        entry.value = value
        entry.status = status
        entry.eventsEnabled = eventsEnabled
        return entry
    }

    /// An `aid` or `iid` as every implementation writes one, `[1-9][0-9]*` within 64 bits, read
    /// without making a number value: two of every entry's three values are these. Anything else
    /// (a fraction, an exponent, a leading zero, a sign) gives up to the full reader.
    private mutating func readInstanceID(_ bytes: RawSpan, _ position: inout Int) throws(DecodeError) -> UInt64 {
        try countValue(at: position)
        let start = position
        var id: UInt64 = 0
        while position < bytes.byteCount, case let byte = Self.byte(bytes, position), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
            let (shifted, overflowed) = id.multipliedReportingOverflow(by: 10)
            let (sum, carried) = shifted.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !overflowed, !carried else { throw malformed("an instance id", at: start) }
            id = sum
            position += 1
        }
        guard position > start, Self.byte(bytes, start) != UInt8(ascii: "0"), position - start <= limits.maximumNumberLength else {
            throw malformed("an instance id", at: start)
        }
        if position < bytes.byteCount, case let next = Self.byte(bytes, position), next == UInt8(ascii: ".") || next | 0x20 == UInt8(ascii: "e") {
            throw malformed("an instance id", at: position)
        }
        return id
    }

    /// A key among the five, compared as one word: no string is made, and a loop to its closing
    /// quote and a comparison byte by byte cost ~140 instructions a key, three times an entry.
    private func readFlatKey(_ bytes: RawSpan, _ position: inout Int) throws(DecodeError) -> FlatKey {
        skipWhitespace(bytes, &position)
        guard position < bytes.byteCount, Self.byte(bytes, position) == UInt8(ascii: "\"") else { throw malformed("a key", at: position) }
        let start = position + 1
        // Every body this reader accepts has at least eight bytes after a key's opening quote (the
        // shortest rest is `iid":1}]}`), so with fewer it gives up, and otherwise loads them at once.
        guard start + 8 <= bytes.byteCount else { throw truncated("a key", at: start) }
        let word = UInt64(littleEndian: bytes.unsafeLoadUnaligned(fromByteOffset: start, as: UInt64.self))
        let key: FlatKey
        let length: Int
        let words = Self.flatKeyWords
        if word & 0xFFFF_FFFF == words.aid {
            (key, length) = (.aid, 3)
        } else if word & 0xFFFF_FFFF == words.iid {
            (key, length) = (.iid, 3)
        } else if word & 0xFFFF_FFFF_FFFF == words.value {
            (key, length) = (.value, 5)
        } else if word & 0xFF_FFFF_FFFF_FFFF == words.status {
            (key, length) = (.status, 6)
        } else if word & 0xFF_FFFF == words.ev {
            (key, length) = (.ev, 2)
        } else {
            throw malformed("aid, iid, value, status or ev", at: start)
        }
        position = start + length + 1
        try expect(":", bytes, &position)
        return key
    }

    /// The five keys with their closing quote, as little-endian words.
    private static let flatKeyWords = (
        aid: word("aid\""), iid: word("iid\""), value: word("value\""), status: word("status\""), ev: word("ev\""))

    /// A string, number or literal, read exactly as the full reader reads it.
    private mutating func readScalar(_ bytes: RawSpan, _ position: inout Int) throws(DecodeError) -> JSONValue {
        let start = position
        try countValue(at: start)
        switch Self.byte(bytes, position) {
        case UInt8(ascii: "\""):
            return JSONValue(.string(try readString(bytes, &position)), offset: baseOffset + start)
        case UInt8(ascii: "t"):
            try readLiteral(Self.trueLiteral, bytes, &position)
            return JSONValue(.bool(true), offset: baseOffset + start)
        case UInt8(ascii: "f"):
            try readLiteral(Self.falseLiteral, bytes, &position)
            return JSONValue(.bool(false), offset: baseOffset + start)
        case UInt8(ascii: "n"):
            try readLiteral(Self.nullLiteral, bytes, &position)
            return JSONValue(.null, offset: baseOffset + start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONValue(.number(try readNumber(bytes, &position)), offset: baseOffset + start)
        default:
            throw malformed("a scalar value", at: position)
        }
    }

    /// After an element or member: true at `closing`, which ends the array or object; false at the
    /// ',' before another. Inlined: called once per member and element, a call of its own cost
    /// 3.4 M instructions on hapbench's 4 MB capture (0.5 % of the analysis).
    @inline(__always)
    private func endsAfterElement(_ closing: Unicode.Scalar, _ bytes: RawSpan, _ position: inout Int) throws(DecodeError) -> Bool {
        skipWhitespace(bytes, &position)
        guard position < bytes.byteCount else { throw truncated("',' or '\(closing)'", at: position) }
        let byte = Self.byte(bytes, position)
        position += 1
        if byte == UInt8(closing.value) { return true }
        guard byte == UInt8(ascii: ",") else { throw malformed("',' or '\(closing)'", at: position - 1) }
        return false
    }

    /// Inlined, as `endsAfterElement` is: five calls an entry.
    @inline(__always)
    private func expect(_ character: Unicode.Scalar, _ bytes: RawSpan, _ position: inout Int) throws(DecodeError) {
        skipWhitespace(bytes, &position)
        guard position < bytes.byteCount, Self.byte(bytes, position) == UInt8(character.value) else {
            throw malformed("'\(character)'", at: position)
        }
        position += 1
    }

    private func expectCharacteristicsKey(_ bytes: RawSpan, _ position: inout Int) throws(DecodeError) {
        try expect("\"", bytes, &position)
        let count = "characteristics".utf8.count
        guard position + count < bytes.byteCount else { throw truncated("a key", at: position) }
        // Two overlapping words, bytes 0–7 and 7–14, checked in bounds above: compared a byte at
        // a time, the key of every body cost 270 instructions.
        let (head, tail) = Self.characteristicsWords
        guard UInt64(littleEndian: bytes.unsafeLoadUnaligned(fromByteOffset: position, as: UInt64.self)) == head,
              UInt64(littleEndian: bytes.unsafeLoadUnaligned(fromByteOffset: position + count - 8, as: UInt64.self)) == tail
        else { throw malformed("the key \"characteristics\"", at: position) }
        position += count
        try expect("\"", bytes, &position)
        try expect(":", bytes, &position)
    }

    /// `characteristics` as the little-endian words of its first and last eight bytes.
    private static let characteristicsWords = (word("characte"), word("eristics"))

    /// The little-endian word of at most eight bytes of `text`, zero above them.
    private static func word(_ text: StaticString) -> UInt64 {
        UnsafeRawBufferPointer(start: text.utf8Start, count: min(text.utf8CodeUnitCount, 8)).reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }
}
