import WireParsing

/// A domain name: a sequence of labels of raw bytes.
///
/// Labels are kept byte for byte, because DNS-SD instance names put spaces, dots and UTF-8
/// inside one label (RFC 6763 §4.3) and an analyzer must show exactly what was sent. Names
/// compare and hash ignoring ASCII case, as DNS matches them (RFC 1034 §3.1, RFC 6762 §16).
public struct DNSName: Sendable, CustomStringConvertible {
    /// RFC 1035 §2.3.4: a label is at most 63 bytes.
    public static let maxLabelLength = 63
    /// RFC 1035 §2.3.4: a name is at most 255 bytes in wire form, length bytes and the
    /// terminating root label included.
    public static let maxWireLength = 255

    /// The labels in uncompressed wire form: each label's length byte followed by its bytes.
    /// The root label's terminating zero is not stored.
    public let encodedLabels: [UInt8]
    /// How many labels the name has; zero for the root.
    public let labelCount: Int

    /// The root name, `.`.
    public static let root = DNSName(encodedLabels: [], labelCount: 0)

    init(encodedLabels: [UInt8], labelCount: Int) {
        self.encodedLabels = encodedLabels
        self.labelCount = labelCount
    }

    /// A name from its labels; nil when a label is empty or longer than 63 bytes or the name
    /// would exceed 255 bytes.
    public init?<Labels: Sequence>(labels: Labels) where Labels.Element: Collection<UInt8> {
        var encoded: [UInt8] = []
        var count = 0
        for label in labels {
            guard (1...Self.maxLabelLength).contains(label.count),
                  encoded.count + 1 + label.count + 1 <= Self.maxWireLength
            else { return nil }
            encoded.append(UInt8(label.count))
            encoded.append(contentsOf: label)
            count += 1
        }
        self.init(encodedLabels: encoded, labelCount: count)
    }

    /// Reads a name at the cursor, following compression pointers (RFC 1035 §4.1.4).
    ///
    /// The cursor's bytes must hold the whole message, which starts at `messageStart`:
    /// compression pointers count from there. The cursor is left after the name as written
    /// in place, that is after its first pointer if it has one.
    ///
    /// Every pointer must point before the start of the piece of name that holds it. A
    /// pointer can only refer to a prior occurrence of a name, so this loses no legitimate
    /// message, and it makes loops impossible: each jump lands strictly earlier.
    public init(
        parsing cursor: inout ByteCursor,
        messageStart: Int = 0,
        maxPointerJumps: Int = DNSDecodingOptions.defaultMaxPointerJumps
    ) throws(DecodeError) {
        let messageEnd = cursor.bytes.byteCount
        try self.init(
            parsing: &cursor, messageStart: messageStart, inlineEnd: messageEnd, maxPointerJumps: maxPointerJumps)
    }

    /// Reads a name whose bytes written in place must end by `inlineEnd`: the end of the
    /// record data when the name sits inside RDATA. After a pointer the name may continue
    /// anywhere earlier in the message.
    init(
        parsing cursor: inout ByteCursor, messageStart: Int, inlineEnd: Int, maxPointerJumps: Int
    ) throws(DecodeError) {
        let messageEnd = cursor.bytes.byteCount
        let layer = cursor.layer
        let baseOffset = cursor.baseOffset
        var encoded: [UInt8] = []
        var labelCount = 0
        var jumps = 0
        var resumePosition: Int?
        var segmentStart = cursor.position
        var limit = inlineEnd

        func overrun(_ what: String, at position: Int) -> DecodeError {
            if resumePosition != nil {
                return DecodeError(
                    .malformed, layer: layer, offset: baseOffset + position,
                    expected: "\(what) of a compressed name that ends inside the message")
            }
            if limit < messageEnd {
                return DecodeError(
                    .malformed, layer: layer, offset: baseOffset + position,
                    expected: "\(what) inside the record data (RDLENGTH)")
            }
            return DecodeError(.truncated, layer: layer, offset: baseOffset + position, expected: what)
        }

        while true {
            let lengthPosition = cursor.position
            guard lengthPosition < limit else { throw overrun("a label length byte", at: lengthPosition) }
            let lengthByte = try cursor.readUInt8("a label length byte")
            switch lengthByte & 0xC0 {
            case 0x00:
                if lengthByte == 0 {
                    if let resumePosition { try cursor.move(to: resumePosition) }
                    self.init(encodedLabels: encoded, labelCount: labelCount)
                    return
                }
                let length = Int(lengthByte)
                guard cursor.position + length <= limit else {
                    throw overrun("a label of \(length) bytes", at: cursor.position)
                }
                guard encoded.count + 1 + length + 1 <= Self.maxWireLength else {
                    throw cursor.malformed("a name of at most 255 bytes (RFC 1035 §2.3.4)", at: lengthPosition)
                }
                if encoded.isEmpty { encoded.reserveCapacity(64) }
                encoded.append(lengthByte)
                let label = try cursor.read(count: length, "a label")
                label.withUnsafeBytes { encoded.append(contentsOf: $0) }
                labelCount += 1
            case 0xC0:
                guard cursor.position < limit else {
                    throw overrun("the second byte of a compression pointer", at: cursor.position)
                }
                let low = try cursor.readUInt8("the second byte of a compression pointer")
                let pointer = Int(lengthByte & 0x3F) << 8 | Int(low)
                let target = messageStart + pointer
                guard target < messageEnd else {
                    throw cursor.malformed(
                        "a compression pointer inside the message (offset \(pointer) of \(messageEnd - messageStart) bytes)",
                        at: lengthPosition)
                }
                guard target < segmentStart else {
                    throw cursor.malformed(
                        "a compression pointer to an earlier name (RFC 1035 §4.1.4); offset \(pointer) is not earlier",
                        at: lengthPosition)
                }
                jumps += 1
                guard jumps <= maxPointerJumps else {
                    throw DecodeError(
                        .limitExceeded, layer: layer, offset: baseOffset + lengthPosition,
                        expected: "at most \(maxPointerJumps) compression pointers in one name")
                }
                if resumePosition == nil { resumePosition = cursor.position }
                try cursor.move(to: target)
                segmentStart = target
                limit = messageEnd
            default:
                throw cursor.malformed(
                    "a label length of at most 63 (RFC 1035 §2.3.4) or a compression pointer, not 0x\(Hex.encode([lengthByte]))",
                    at: lengthPosition)
            }
        }
    }

    /// The name's size in uncompressed wire form, including the terminating root label.
    public var wireLength: Int { encodedLabels.count + 1 }

    public var isRoot: Bool { labelCount == 0 }

    /// The labels, first (leftmost) to last, as slices of `encodedLabels`.
    public var labels: Labels { Labels(encodedLabels: encodedLabels) }

    /// The name without its first `count` labels: the parent domain `count` levels up.
    /// Dropping more labels than the name has gives the root.
    public func droppingFirstLabels(_ count: Int) -> DNSName {
        guard count > 0 else { return self }
        guard count < labelCount else { return .root }
        var offset = 0
        for _ in 0..<count { offset += 1 + Int(encodedLabels[offset]) }
        return DNSName(encodedLabels: Array(encodedLabels[offset...]), labelCount: labelCount - count)
    }

    /// Whether `suffix` is this name or one of its ancestors, ignoring ASCII case.
    public func hasSuffix(_ suffix: DNSName) -> Bool {
        guard suffix.labelCount <= labelCount else { return false }
        var offset = 0
        for _ in 0..<(labelCount - suffix.labelCount) { offset += 1 + Int(encodedLabels[offset]) }
        return Self.equalIgnoringCase(encodedLabels[offset...], suffix.encodedLabels[...])
    }

    public var description: String { escapedText }

    /// The labels of a name, each a slice of the name's encoded form. Indices are offsets of
    /// label length bytes in `encodedLabels`.
    public struct Labels: Collection, Sendable {
        let encodedLabels: [UInt8]

        public var startIndex: Int { 0 }
        public var endIndex: Int { encodedLabels.count }

        public func index(after index: Int) -> Int {
            index + 1 + Int(encodedLabels[index])
        }

        public subscript(index: Int) -> ArraySlice<UInt8> {
            encodedLabels[(index + 1)..<(index + 1 + Int(encodedLabels[index]))]
        }
    }

    @inline(__always)
    static func foldedCase(_ byte: UInt8) -> UInt8 {
        byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
    }

    static func equalIgnoringCase(_ lhs: ArraySlice<UInt8>, _ rhs: ArraySlice<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        // Length bytes are at most 63, below "A", so folding them is harmless.
        return zip(lhs, rhs).allSatisfy { foldedCase($0) == foldedCase($1) }
    }
}

extension DNSName: Hashable {
    public static func == (lhs: DNSName, rhs: DNSName) -> Bool {
        lhs.labelCount == rhs.labelCount && equalIgnoringCase(lhs.encodedLabels[...], rhs.encodedLabels[...])
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(encodedLabels.count)
        // Eight folded bytes per combine: hashing sits on the path of every record lookup.
        var word: UInt64 = 0
        for (index, byte) in encodedLabels.enumerated() {
            word = word << 8 | UInt64(Self.foldedCase(byte))
            if index & 7 == 7 {
                hasher.combine(word)
                word = 0
            }
        }
        hasher.combine(word)
    }
}
