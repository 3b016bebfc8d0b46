/// A TXT record read as DNS-SD key/value pairs (RFC 6763 §6).
///
/// Each string is `key=value`, or a bare `key` for a boolean attribute. Keys match ignoring
/// case and the first occurrence wins; values are arbitrary bytes. Every rule the record
/// breaks is listed in `diagnostics`, with the offset of the string that broke it.
public struct ServiceTXT: Sendable, Hashable {
    /// One key and its value.
    public struct Entry: Sendable, Hashable {
        /// The key as sent (`c#`, `sf`, `D`).
        public var key: String
        /// The bytes after the first `=`; nil when the string had no `=` (a boolean
        /// attribute that is present), empty for `key=`.
        public var value: [UInt8]?
        /// Offset of the string's length byte.
        public var offset: Int

        public init(key: String, value: [UInt8]?, offset: Int) {
            self.key = key
            self.value = value
            self.offset = offset
        }

        /// The value decoded as UTF-8 for display, as `DNSName.displayText` decodes labels.
        public var valueText: String? { value.map { DNSName.displayText(ofLabel: $0) } }
    }

    /// The first occurrence of each key, in the order sent.
    public var entries: [Entry]
    public var diagnostics: [ServiceTXTDiagnostic]

    public init(entries: [Entry], diagnostics: [ServiceTXTDiagnostic] = []) {
        self.entries = entries
        self.diagnostics = diagnostics
    }

    /// Reads the strings of TXT data that starts at `dataOffset` in the message.
    public init(_ text: DNSTextStrings, dataOffset: Int = 0) {
        var entries: [Entry] = []
        var diagnostics: [ServiceTXTDiagnostic] = []
        let strings = text.strings
        // A set, so that a record of thousands of strings is checked for duplicates in
        // linear time.
        var seenKeys: Set<FoldedKey> = []
        seenKeys.reserveCapacity(strings.count)
        if strings.isEmpty {
            diagnostics.append(ServiceTXTDiagnostic(offset: dataOffset, kind: .noStrings))
        }
        for string in strings {
            let offset = dataOffset + string.startIndex - 1
            guard !string.isEmpty else {
                if strings.count > 1 { diagnostics.append(ServiceTXTDiagnostic(offset: offset, kind: .emptyString)) }
                continue
            }
            let separator = string.firstIndex(of: UInt8(ascii: "="))
            let keyBytes = string[..<(separator ?? string.endIndex)]
            guard !keyBytes.isEmpty else {
                diagnostics.append(ServiceTXTDiagnostic(offset: offset, kind: .missingKey))
                continue
            }
            let key = DNSName.displayText(ofLabel: keyBytes)
            if !keyBytes.allSatisfy({ (0x20...0x7E).contains($0) }) {
                diagnostics.append(ServiceTXTDiagnostic(offset: offset, kind: .keyNotPrintableASCII(key)))
            }
            if keyBytes.count > 9 {
                diagnostics.append(ServiceTXTDiagnostic(offset: offset, kind: .keyLongerThanNineCharacters(key)))
            }
            guard seenKeys.insert(FoldedKey(bytes: keyBytes)).inserted else {
                diagnostics.append(ServiceTXTDiagnostic(offset: offset, kind: .duplicateKey(key)))
                continue
            }
            let value = separator.map { Array(string[(string.index(after: $0))...]) }
            entries.append(Entry(key: key, value: value, offset: offset))
        }
        self.init(entries: entries, diagnostics: diagnostics)
    }

    /// The entry for `key`, ignoring ASCII case.
    public subscript(key: String) -> Entry? {
        entries.first { Self.keysMatch($0.key, key.utf8) }
    }

    /// Whether `key` is present, with or without a value.
    public func contains(_ key: String) -> Bool { self[key] != nil }

    /// Key bytes that compare and hash ignoring ASCII case.
    private struct FoldedKey: Hashable {
        let bytes: ArraySlice<UInt8>

        static func == (lhs: FoldedKey, rhs: FoldedKey) -> Bool {
            DNSName.equalIgnoringCase(lhs.bytes, rhs.bytes)
        }

        func hash(into hasher: inout Hasher) {
            for byte in bytes { hasher.combine(DNSName.foldedCase(byte)) }
        }
    }

    private static func keysMatch(_ key: String, _ other: some Collection<UInt8>) -> Bool {
        key.utf8.count == other.count
            && zip(key.utf8, other).allSatisfy { DNSName.foldedCase($0) == DNSName.foldedCase($1) }
    }
}
