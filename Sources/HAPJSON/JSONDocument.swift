import WireParsing

extension DecodeError.Layer {
    /// JSON text (RFC 8259): syntax, encoding and the reader's limits.
    public static let json = DecodeError.Layer("json")
    /// The shape of a HAP JSON body (`/accessories`, `/characteristics`, `/prepare`).
    public static let hapJSON = DecodeError.Layer("hap-json")
}

/// One parsed JSON text: its root value and what the reader noticed on the way.
public struct JSONDocument: Sendable {
    public var root: JSONValue
    /// Duplicate object keys (`duplicate-key`), each with its path and offset.
    public var diagnostics: [HAPJSONDiagnostic]

    /// Parses one JSON text that fills the rest of the cursor, which it then consumes.
    ///
    /// The grammar is RFC 8259's, exactly: no comments, no trailing commas, no leading zeros, no
    /// byte-order mark; strings must be valid UTF-8 (RFC 3629) and `\u` escapes must pair their
    /// surrogates. Whitespace may surround the value. Errors carry layer `json`, the absolute offset
    /// of the first byte that did not fit, and `truncated` when the input ended too early.
    public init(parsing cursor: inout ByteCursor, limits: JSONLimits = JSONLimits()) throws(DecodeError) {
        let start = cursor.position
        let bytes = cursor.bytes.extracting(start ..< cursor.bytes.byteCount)
        var reader = JSONReader(limits: limits, baseOffset: cursor.baseOffset + start)
        root = try reader.readDocument(bytes)
        diagnostics = reader.diagnostics
        _ = cursor.readRemaining()
    }

    /// Parses `bytes` as one JSON text; offsets count from the first byte.
    public init(bytes: [UInt8], limits: JSONLimits = JSONLimits()) throws(DecodeError) {
        var cursor = ByteCursor(bytes.span.bytes, layer: .json)
        try self.init(parsing: &cursor, limits: limits)
    }
}

/// The RFC 8259 reader behind `JSONDocument`.
///
/// It is iterative: open containers live on an explicit stack, so nesting depth costs heap, not call
/// stack, and the depth limit is a policy rather than a guard against crashing.
struct JSONReader {
    let limits: JSONLimits
    /// The absolute offset of `bytes[0]`.
    let baseOffset: Int
    private(set) var diagnostics: [HAPJSONDiagnostic] = []
    private var valueCount = 0
    /// Decoded bytes of a string that has escapes, reused from string to string.
    private var scratch: [UInt8] = []
    private var openContainers: [OpenContainer] = []
    /// The elements of every open array, innermost last. Sharing one stack means that a closing
    /// array copies its elements once into an array of exactly their size.
    private var elementStack: [JSONValue] = []
    /// The members of every open object, innermost last.
    private var memberStack: [JSONMember] = []

    init(limits: JSONLimits, baseOffset: Int) {
        self.limits = limits
        self.baseOffset = baseOffset
    }

    /// An array or object whose closing bracket has not been read yet.
    private struct OpenContainer {
        let isObject: Bool
        let offset: Int
        /// Where its elements or members begin on their stack.
        let firstIndex: Int
        /// How many elements or members it has so far.
        var count = 0
        /// The key of the member whose value is being read.
        var pendingKey = ""
        var pendingKeyOffset = 0
        /// Keys seen so far and where each first appeared, built once the object is too large for
        /// a linear search to stay cheap.
        var firstKeyOffsets: [String: Int]?

        init(isObject: Bool, offset: Int, firstIndex: Int) {
            self.isObject = isObject
            self.offset = offset
            self.firstIndex = firstIndex
        }
    }

    /// Objects up to this many members find duplicate keys by a linear search: comparing short
    /// keys costs less than hashing them until objects grow far beyond what HAP bodies hold
    /// (characteristic objects have about a dozen members).
    private static let linearSearchLimit = 32

    // MARK: Structure

    mutating func readDocument(_ bytes: RawSpan) throws(DecodeError) -> JSONValue {
        var position = 0
        try beginDocument(bytes, &position)
        let value = try readValue(bytes, &position)
        try endDocument(bytes, &position)
        return value
    }

    /// Checks the document's size and skips the whitespace before its value.
    mutating func beginDocument(_ bytes: RawSpan, _ position: inout Int) throws(DecodeError) {
        // Enough for a typical HAP body without regrowing; larger documents grow as needed.
        openContainers.reserveCapacity(8)
        elementStack.reserveCapacity(16)
        memberStack.reserveCapacity(32)
        guard bytes.byteCount <= limits.maximumDocumentSize else {
            throw limitExceeded("a document of at most \(limits.maximumDocumentSize) bytes", .jsonDocument, at: limits.maximumDocumentSize)
        }
        skipWhitespace(bytes, &position)
    }

    /// Checks that only whitespace follows the document's value.
    func endDocument(_ bytes: RawSpan, _ position: inout Int) throws(DecodeError) {
        skipWhitespace(bytes, &position)
        guard position == bytes.byteCount else { throw malformed("the end of the input after the JSON value", at: position) }
    }

    /// Reads one value starting at `position`, leaving `position` just after it. Containers the
    /// caller has opened (`openContainer`) count towards the depth limit and name duplicate keys'
    /// paths.
    mutating func readValue(_ bytes: RawSpan, _ position: inout Int) throws(DecodeError) -> JSONValue {
        let end = bytes.byteCount
        let outerDepth = openContainers.count
        var value: JSONValue
        parsing: while true {
            // A value, or the opening of a container whose first value comes next.
            guard position < end else { throw truncated("a JSON value", at: position) }
            let start = position
            let isContainer = Self.byte(bytes, position) == UInt8(ascii: "{") || Self.byte(bytes, position) == UInt8(ascii: "[")
            if !isContainer { try countValue(at: start) }
            switch Self.byte(bytes, position) {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard try openContainer(bytes, &position) else { continue parsing }
                value = closeContainer()
            case UInt8(ascii: "\""):
                value = JSONValue(.string(try readString(bytes, &position)), offset: baseOffset + start)
            case UInt8(ascii: "t"):
                try readLiteral(Self.trueLiteral, bytes, &position)
                value = JSONValue(.bool(true), offset: baseOffset + start)
            case UInt8(ascii: "f"):
                try readLiteral(Self.falseLiteral, bytes, &position)
                value = JSONValue(.bool(false), offset: baseOffset + start)
            case UInt8(ascii: "n"):
                try readLiteral(Self.nullLiteral, bytes, &position)
                value = JSONValue(.null, offset: baseOffset + start)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = JSONValue(.number(try readNumber(bytes, &position)), offset: baseOffset + start)
            default:
                throw malformed("a JSON value", at: position)
            }

            // Hand the value to its container; close every container that ends here.
            while openContainers.count > outerDepth {
                let isObject = openContainers[openContainers.count - 1].isObject
                if !isObject { elementStack.append(value) }
                if try finishElement(isObject ? value : nil, bytes, &position) { continue parsing }
                value = closeContainer()
            }
            break parsing
        }
        return value
    }

    // MARK: Containers read by a caller

    /// Opens the array or object whose bracket is at `position`, counting it as a value, and
    /// skips the whitespace after the bracket; true when the container closes at once (and is
    /// then to be closed). The first key of an object is read.
    mutating func openContainer(_ bytes: RawSpan, _ position: inout Int) throws(DecodeError) -> Bool {
        let start = position
        try countValue(at: start)
        let isObject = Self.byte(bytes, position) == UInt8(ascii: "{")
        guard openContainers.count < limits.maximumDepth else {
            throw limitExceeded("nesting at most \(limits.maximumDepth) deep", .jsonDepth, at: start)
        }
        openContainers.append(OpenContainer(
            isObject: isObject, offset: baseOffset + start, firstIndex: isObject ? memberStack.count : elementStack.count))
        position += 1
        skipWhitespace(bytes, &position)
        if position < bytes.byteCount, Self.byte(bytes, position) == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
            position += 1
            return true
        }
        if isObject { try readKey(bytes, &position) }
        return false
    }

    /// The key of the member whose value is at `position` in the innermost open object.
    var pendingKey: (key: String, offset: Int) {
        let top = openContainers[openContainers.count - 1]
        return (top.pendingKey, top.pendingKeyOffset)
    }

    /// The members of the innermost open object so far.
    var openMembers: ArraySlice<JSONMember> {
        memberStack[openContainers[openContainers.count - 1].firstIndex...]
    }

    /// Counts an element read into the innermost open container, adding `member` as the
    /// member's value when it is an object, then reads the `,` or closing bracket after it, and
    /// the next key; true when another element or member follows.
    mutating func finishElement(_ member: JSONValue?, _ bytes: RawSpan, _ position: inout Int) throws(DecodeError) -> Bool {
        let top = openContainers.count - 1
        let isObject = openContainers[top].isObject
        if isObject, let member { appendMember(member) }
        openContainers[top].count += 1
        skipWhitespace(bytes, &position)
        guard position < bytes.byteCount else {
            throw truncated(isObject ? "',' or '}' after an object member" : "',' or ']' after an array element", at: position)
        }
        switch Self.byte(bytes, position) {
        case UInt8(ascii: ","):
            position += 1
            skipWhitespace(bytes, &position)
            if isObject { try readKey(bytes, &position) }
            return true
        case isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"):
            position += 1
            return false
        default:
            throw malformed(isObject ? "',' or '}' after an object member" : "',' or ']' after an array element", at: position)
        }
    }

    /// Closes the innermost container a caller opened, dropping its members.
    mutating func closeCallersContainer() {
        let container = openContainers.removeLast()
        if container.isObject { memberStack.removeLast(container.count) }
    }

    mutating func countValue(at position: Int) throws(DecodeError) {
        valueCount += 1
        guard valueCount <= limits.maximumValueCount else {
            throw limitExceeded("at most \(limits.maximumValueCount) values in a document", .jsonValues, at: position)
        }
    }

    /// Reads `"key"` and the `:` after it, leaving `position` at the member's value.
    private mutating func readKey(_ bytes: RawSpan, _ position: inout Int) throws(DecodeError) {
        guard position < bytes.byteCount else { throw truncated("a string key", at: position) }
        guard Self.byte(bytes, position) == UInt8(ascii: "\"") else { throw malformed("a string key", at: position) }
        let keyOffset = baseOffset + position
        let key = try readString(bytes, &position)
        skipWhitespace(bytes, &position)
        guard position < bytes.byteCount else { throw truncated("':' after an object key", at: position) }
        guard Self.byte(bytes, position) == UInt8(ascii: ":") else { throw malformed("':' after an object key", at: position) }
        position += 1
        skipWhitespace(bytes, &position)
        openContainers[openContainers.count - 1].pendingKey = key
        openContainers[openContainers.count - 1].pendingKeyOffset = keyOffset
    }

    private mutating func appendMember(_ value: JSONValue) {
        let top = openContainers.count - 1
        let key = openContainers[top].pendingKey
        let keyOffset = openContainers[top].pendingKeyOffset
        if let firstOffset = firstOffset(ofKey: key, at: keyOffset) {
            diagnostics.append(HAPJSONDiagnostic(
                .duplicateKey, .warning, path: pathOfTopContainer(), offset: keyOffset,
                message: "key \"\(key)\" appears again in this object (first at byte \(firstOffset)); both were kept"))
        }
        memberStack.append(JSONMember(key: key, value: value, keyOffset: keyOffset))
    }

    /// Where `key` first appeared in the innermost object, if it already has it; records it
    /// otherwise.
    private mutating func firstOffset(ofKey key: String, at offset: Int) -> Int? {
        let top = openContainers.count - 1
        let members = openContainers[top].firstIndex ..< memberStack.count
        if openContainers[top].firstKeyOffsets == nil {
            if members.count < Self.linearSearchLimit {
                return members.first { memberStack[$0].key == key }.map { memberStack[$0].keyOffset }
            }
            var offsets: [String: Int] = [:]
            for index in members where offsets[memberStack[index].key] == nil {
                offsets[memberStack[index].key] = memberStack[index].keyOffset
            }
            openContainers[top].firstKeyOffsets = offsets
        }
        if let first = openContainers[top].firstKeyOffsets?[key] { return first }
        openContainers[top].firstKeyOffsets?[key] = offset
        return nil
    }

    private mutating func closeContainer() -> JSONValue {
        let container = openContainers.removeLast()
        if container.isObject {
            let members = Array(memberStack[container.firstIndex...])
            memberStack.removeLast(container.count)
            return JSONValue(.object(members), offset: container.offset)
        } else {
            let elements = Array(elementStack[container.firstIndex...])
            elementStack.removeLast(container.count)
            return JSONValue(.array(elements), offset: container.offset)
        }
    }

    /// The JSON Pointer of the innermost open container.
    private func pathOfTopContainer() -> String {
        var path = ""
        for container in openContainers.dropLast() {
            path = container.isObject
                ? JSONPointer.appending(container.pendingKey, to: path)
                : JSONPointer.appending(container.count, to: path)
        }
        return path
    }

    // MARK: Scalars

    /// Inlined: called before nearly every token (17 instructions a call, 6 M on hapbench's 4 MB
    /// capture), and HAP bodies are mostly compact, where one comparison settles it.
    @inline(__always)
    func skipWhitespace(_ bytes: RawSpan, _ position: inout Int) {
        while position < bytes.byteCount, case let byte = Self.byte(bytes, position), byte <= UInt8(ascii: " "),
              byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
            position += 1
        }
    }

    static let trueLiteral: [UInt8] = Array("true".utf8)
    static let falseLiteral: [UInt8] = Array("false".utf8)
    static let nullLiteral: [UInt8] = Array("null".utf8)

    func readLiteral(_ literal: [UInt8], _ bytes: RawSpan, _ position: inout Int) throws(DecodeError) {
        for index in literal.indices {
            guard position + index < bytes.byteCount else {
                throw truncated("'\(String(decoding: literal, as: UTF8.self))'", at: position + index)
            }
            guard Self.byte(bytes, position + index) == literal[index] else {
                throw malformed("'\(String(decoding: literal, as: UTF8.self))'", at: position + index)
            }
        }
        position += literal.count
    }

    /// Reads a number (RFC 8259 §6) starting at `position`.
    func readNumber(_ bytes: RawSpan, _ position: inout Int) throws(DecodeError) -> JSONNumber {
        let end = bytes.byteCount
        let start = position
        let isNegative = Self.byte(bytes, position) == UInt8(ascii: "-")
        if isNegative { position += 1 }
        try requireDigit("a digit", bytes, at: position)
        let digitsStart = position
        if Self.byte(bytes, position) == UInt8(ascii: "0") {
            position += 1
            if Self.isDigit(bytes, position) { throw malformed("no digit after a leading zero", at: position) }
        } else {
            skipDigits(bytes, &position)
        }
        let digitsEnd = position
        var isIntegerLiteral = true
        var fraction: Range<Int>?
        if position < end, Self.byte(bytes, position) == UInt8(ascii: ".") {
            isIntegerLiteral = false
            position += 1
            try requireDigit("a digit after the decimal point", bytes, at: position)
            let fractionStart = position
            skipDigits(bytes, &position)
            fraction = fractionStart ..< position
        }
        var hasExponent = false
        if position < end, Self.byte(bytes, position) | 0x20 == UInt8(ascii: "e") {
            isIntegerLiteral = false
            hasExponent = true
            position += 1
            if position < end, Self.byte(bytes, position) == UInt8(ascii: "+") || Self.byte(bytes, position) == UInt8(ascii: "-") {
                position += 1
            }
            try requireDigit("a digit in the exponent", bytes, at: position)
            skipDigits(bytes, &position)
        }
        guard position - start <= limits.maximumNumberLength else {
            throw limitExceeded("a number of at most \(limits.maximumNumberLength) characters", .jsonNumber, at: start)
        }

        let digitCount = (digitsEnd - digitsStart) + (fraction?.count ?? 0)
        guard !hasExponent, digitCount <= JSONNumber.maximumDecimalDigits else {
            // An exponent or many digits: the text is kept as written.
            let text = Self.text(bytes, start ..< position)
            if isIntegerLiteral, let magnitude = Self.integerValue(bytes, digitsStart ..< digitsEnd) {
                if !isNegative {
                    return JSONNumber(text: text, value: Int64(exactly: magnitude).map { .integer($0) } ?? .unsignedInteger(magnitude))
                }
                if magnitude <= UInt64(Int64.max) + 1 {
                    return JSONNumber(text: text, value: .integer(Int64(truncatingIfNeeded: 0 &- magnitude)))
                }
            }
            return JSONNumber(text: text, value: .double(try doubleValue(text, at: start)))
        }
        // At most 19 digits, which fit a UInt64: the number keeps them and makes no text.
        var digits: UInt64 = 0
        for index in digitsStart ..< digitsEnd { digits = digits * 10 + UInt64(Self.byte(bytes, index) - UInt8(ascii: "0")) }
        for index in fraction ?? (0 ..< 0) { digits = digits * 10 + UInt64(Self.byte(bytes, index) - UInt8(ascii: "0")) }
        let fractionDigits = fraction?.count ?? 0
        let value: JSONNumber.Value
        if isIntegerLiteral, !isNegative {
            value = Int64(exactly: digits).map { .integer($0) } ?? .unsignedInteger(digits)
        } else if isIntegerLiteral, digits <= UInt64(Int64.max) + 1 {
            value = .integer(Int64(truncatingIfNeeded: 0 &- digits))
        } else if digitCount <= Self.shortDecimalDigits {
            let magnitude = Double(digits) / Self.exactPowersOfTen[fractionDigits]
            value = .double(isNegative ? -magnitude : magnitude)
        } else {
            value = .double(try doubleValue(Self.text(bytes, start ..< position), at: start))
        }
        return JSONNumber(digits: digits, fractionDigits: fractionDigits, isNegative: isNegative, value: value)
    }

    private static func text(_ bytes: RawSpan, _ range: Range<Int>) -> String {
        bytes.extracting(range).withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// A literal's value through `Double(_:)` (strtod), for the literals too long for
    /// `shortDecimalDigits`.
    private func doubleValue(_ text: String, at start: Int) throws(DecodeError) -> Double {
        guard let double = Double(text), double.isFinite else {
            throw DecodeError(.unsupported, layer: .json, offset: baseOffset + start,
                              expected: "a number within the range of a 64-bit float")
        }
        return double
    }

    /// The value of the decimal digits in `range`; nil when it exceeds `UInt64`.
    private static func integerValue(_ bytes: RawSpan, _ range: Range<Int>) -> UInt64? {
        var value: UInt64 = 0
        for index in range {
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = shifted.addingReportingOverflow(UInt64(byte(bytes, index) - UInt8(ascii: "0")))
            guard !overflow, !carry else { return nil }
            value = sum
        }
        return value
    }

    /// Powers of ten that a `Double` holds exactly (10^22 is the largest).
    private static let exactPowersOfTen: [Double] = (0 ... 22).map { exponent in
        (0 ..< exponent).reduce(1.0) { power, _ in power * 10 }
    }

    /// The most digits, integer and fraction together, whose value `readNumber` makes as their
    /// integer over an exact power of ten. Fifteen digits make an integer below 2^53 and at most
    /// 22 fraction digits a power of ten that a `Double` holds exactly, so the one division
    /// rounds once, correctly: the same `Double` that `Double(_:)` (strtod) gives. Clinger, "How
    /// to Read Floating Point Numbers Accurately" (PLDI 1990), the fast path. Most HAP values
    /// (`23.5`, `0.25`) take it; `Double(_:)` costs ~800 instructions each.
    static let shortDecimalDigits = 15

    private static func isDigit(_ bytes: RawSpan, _ index: Int) -> Bool {
        index < bytes.byteCount && (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(byte(bytes, index))
    }

    private func skipDigits(_ bytes: RawSpan, _ position: inout Int) {
        while Self.isDigit(bytes, position) { position += 1 }
    }

    private func requireDigit(_ what: String, _ bytes: RawSpan, at index: Int) throws(DecodeError) {
        guard index < bytes.byteCount else { throw truncated(what, at: index) }
        guard Self.isDigit(bytes, index) else { throw malformed(what, at: index) }
    }

    /// Reads a string (RFC 8259 §7) whose opening quote is at `position`.
    ///
    /// A string without escapes becomes a `String` straight from the input bytes once they have been
    /// validated; only escapes send the bytes through `scratch`.
    mutating func readString(_ bytes: RawSpan, _ position: inout Int) throws(DecodeError) -> String {
        let end = bytes.byteCount
        let quoteOffset = position
        position += 1
        let contentStart = position
        while true {
            guard position < end else { throw truncated("'\"' closing the string", at: position) }
            let byte = Self.byte(bytes, position)
            if byte == UInt8(ascii: "\"") {
                try checkStringLength(position - contentStart, quoteOffset: quoteOffset)
                defer { position += 1 }
                return bytes.extracting(contentStart ..< position).withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw malformed("a control character written as an escape", at: position) }
            if byte < 0x80 {
                position += 1
            } else {
                position += try utf8SequenceLength(bytes, at: position)
            }
        }

        scratch.removeAll(keepingCapacity: true)
        bytes.extracting(contentStart ..< position).withUnsafeBytes { scratch.append(contentsOf: $0) }
        while true {
            guard position < end else { throw truncated("'\"' closing the string", at: position) }
            let byte = Self.byte(bytes, position)
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return String(decoding: scratch, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try readEscape(bytes, &position)
            case 0 ..< 0x20:
                throw malformed("a control character written as an escape", at: position)
            case 0x80...:
                let length = try utf8SequenceLength(bytes, at: position)
                bytes.extracting(position ..< position + length).withUnsafeBytes { scratch.append(contentsOf: $0) }
                position += length
            default:
                scratch.append(byte)
                position += 1
            }
            try checkStringLength(scratch.count, quoteOffset: quoteOffset)
        }
    }

    private func checkStringLength(_ length: Int, quoteOffset: Int) throws(DecodeError) {
        guard length <= limits.maximumStringLength else {
            throw limitExceeded("a string of at most \(limits.maximumStringLength) bytes", .jsonString, at: quoteOffset)
        }
    }

    /// The length of the well-formed UTF-8 sequence whose lead byte (≥ 0x80) is at `position`
    /// (RFC 3629 §4: no overlong forms, no surrogates, nothing above U+10FFFF).
    private func utf8SequenceLength(_ bytes: RawSpan, at position: Int) throws(DecodeError) -> Int {
        let lead = Self.byte(bytes, position)
        let length: Int
        var allowed: ClosedRange<UInt8> = 0x80 ... 0xBF
        switch lead {
        case 0xC2 ... 0xDF: length = 2
        case 0xE0: length = 3; allowed = 0xA0 ... 0xBF
        case 0xE1 ... 0xEC, 0xEE ... 0xEF: length = 3
        case 0xED: length = 3; allowed = 0x80 ... 0x9F
        case 0xF0: length = 4; allowed = 0x90 ... 0xBF
        case 0xF1 ... 0xF3: length = 4
        case 0xF4: length = 4; allowed = 0x80 ... 0x8F
        default: throw malformed("UTF-8 text (0x\(Hex.encode([lead])) cannot start a character)", at: position)
        }
        for index in position + 1 ..< position + length {
            guard index < bytes.byteCount else { throw truncated("the rest of a UTF-8 character", at: index) }
            let byte = Self.byte(bytes, index)
            guard allowed.contains(byte) else {
                throw malformed("a UTF-8 continuation byte (found 0x\(Hex.encode([byte])))", at: index)
            }
            allowed = 0x80 ... 0xBF
        }
        return length
    }

    /// Decodes the escape whose backslash is at `position` into `scratch`.
    private mutating func readEscape(_ bytes: RawSpan, _ position: inout Int) throws(DecodeError) {
        let escapeStart = position
        guard position + 1 < bytes.byteCount else { throw truncated("an escaped character after '\\'", at: position + 1) }
        let decoded: UInt8
        switch Self.byte(bytes, position + 1) {
        case UInt8(ascii: "\""): decoded = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): decoded = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): decoded = UInt8(ascii: "/")
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"):
            var scalar = try readHexQuad(bytes, at: position + 2)
            position += 6
            switch scalar {
            case 0xD800 ... 0xDBFF:
                // RFC 8259 §7: a character outside the BMP is a high surrogate escape followed at
                // once by a low one.
                let lowStart = position
                let expected = "a low-surrogate escape \\uDC00-\\uDFFF after a high surrogate"
                for (index, character) in "\\u".utf8.enumerated() {
                    guard lowStart + index < bytes.byteCount else { throw truncated(expected, at: lowStart + index) }
                    guard Self.byte(bytes, lowStart + index) == character else { throw malformed(expected, at: lowStart) }
                }
                let low = try readHexQuad(bytes, at: lowStart + 2)
                guard (0xDC00 ... 0xDFFF).contains(low) else { throw malformed(expected, at: lowStart) }
                position += 6
                scalar = 0x10000 + (scalar - 0xD800) << 10 + (low - 0xDC00)
            case 0xDC00 ... 0xDFFF:
                throw malformed("a high-surrogate escape before this low surrogate", at: escapeStart)
            default:
                break
            }
            appendUTF8(scalar)
            return
        default:
            throw malformed("an escape: \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX", at: position + 1)
        }
        scratch.append(decoded)
        position += 2
    }

    /// Appends the UTF-8 form of a Unicode scalar value (not a surrogate, at most U+10FFFF).
    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0 ..< 0x80:
            scratch.append(UInt8(scalar))
        case 0x80 ..< 0x800:
            scratch.append(0xC0 | UInt8(scalar >> 6))
            scratch.append(0x80 | UInt8(scalar & 0x3F))
        case 0x800 ..< 0x10000:
            scratch.append(0xE0 | UInt8(scalar >> 12))
            scratch.append(0x80 | UInt8(scalar >> 6 & 0x3F))
            scratch.append(0x80 | UInt8(scalar & 0x3F))
        default:
            scratch.append(0xF0 | UInt8(scalar >> 18))
            scratch.append(0x80 | UInt8(scalar >> 12 & 0x3F))
            scratch.append(0x80 | UInt8(scalar >> 6 & 0x3F))
            scratch.append(0x80 | UInt8(scalar & 0x3F))
        }
    }

    /// The value of four hex digits at `position`.
    private func readHexQuad(_ bytes: RawSpan, at position: Int) throws(DecodeError) -> UInt32 {
        var value: UInt32 = 0
        for index in position ..< position + 4 {
            guard index < bytes.byteCount else { throw truncated("four hex digits after \\u", at: index) }
            let byte = Self.byte(bytes, index)
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0") ... UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a") ... UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A") ... UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw malformed("four hex digits after \\u", at: index)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    // MARK: Bytes and errors

    /// The byte at `index`, which the caller has checked lies inside `bytes`.
    @inline(__always)
    static func byte(_ bytes: RawSpan, _ index: Int) -> UInt8 {
        bytes.unsafeLoad(fromByteOffset: index, as: UInt8.self)
    }

    func truncated(_ expected: String, at position: Int) -> DecodeError {
        DecodeError(.truncated, layer: .json, offset: baseOffset + position, expected: expected)
    }

    func malformed(_ expected: String, at position: Int) -> DecodeError {
        DecodeError(.malformed, layer: .json, offset: baseOffset + position, expected: expected)
    }

    private func limitExceeded(_ expected: String, _ limit: LimitName, at position: Int) -> DecodeError {
        DecodeError(.limitExceeded, layer: .json, offset: baseOffset + position, expected: expected, limit: limit)
    }
}
