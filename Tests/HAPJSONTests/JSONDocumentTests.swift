import Testing
import WireParsing
@testable import HAPJSON
import TestSupport

/// Parses `text`, returning the document or the error.
func parseJSON(_ text: String, limits: JSONLimits = JSONLimits()) -> Result<JSONDocument, DecodeError> {
    parseJSON(Array(text.utf8), limits: limits)
}

func parseJSON(_ bytes: [UInt8], limits: JSONLimits = JSONLimits()) -> Result<JSONDocument, DecodeError> {
    do {
        return .success(try JSONDocument(bytes: bytes, limits: limits))
    } catch {
        return .failure(error)
    }
}

extension Result where Failure == DecodeError {
    var error: DecodeError? {
        if case .failure(let error) = self { error } else { nil }
    }

    var document: Success? {
        if case .success(let document) = self { document } else { nil }
    }
}

@Suite struct JSONDocumentTests {
    // MARK: The grammar

    @Test func scalarsParseIntoTheirKinds() throws {
        let root = try #require(parseJSON(#" [null, true, false, "text", 12, -3.5] "#).document).root
        #expect(root == .array([.null, .bool(true), .bool(false), .string("text"),
                               .number(JSONNumber(12)), .number(JSONNumber(-3.5)!)]))
    }

    @Test func objectMembersKeepTheirOrderAndKeyOffsets() throws {
        let document = try #require(parseJSON(#"{"b":1, "a":{"c":[]}}"#).document)
        let members = try #require(document.root.objectValue)
        #expect(members.map(\.key) == ["b", "a"])
        #expect(members.map(\.keyOffset) == [1, 8])
        #expect(document.root["a"]?["c"] == .array([]))
        #expect(document.root["a"]?.offset == 12)
        #expect(document.diagnostics.isEmpty)
    }

    @Test func duplicateKeysAreKeptAndReportedWithTheirPath() throws {
        let document = try #require(parseJSON(#"{"list":[{"aid":1,"aid":2}]}"#).document)
        let inner = try #require(document.root["list"]?.arrayValue?.first?.objectValue)
        #expect(inner.map(\.value) == [.number(JSONNumber(1)), .number(JSONNumber(2))])
        let diagnostic = try #require(document.diagnostics.first)
        #expect(document.diagnostics.count == 1)
        #expect(diagnostic.code == .duplicateKey)
        #expect(diagnostic.path == "/list/0")
        #expect(diagnostic.offset == 18)
        #expect(diagnostic.message.contains("first at byte 10"))
    }

    @Test func duplicateKeysAreFoundInLargeObjectsToo() throws {
        let keys = (0 ..< 40).map { "\"k\($0)\":\($0)" } + ["\"k7\":0", "\"k39\":0"]
        let document = try #require(parseJSON("{" + keys.joined(separator: ",") + "}").document)
        #expect(document.diagnostics.map(\.message).map { $0.hasPrefix("key \"k7\"") || $0.hasPrefix("key \"k39\"") } == [true, true])
    }

    @Test func valuesRememberWhereTheyBegan() throws {
        let root = try #require(parseJSON("\n  [ 1 ,\"x\" ]").document).root
        #expect(root.offset == 3)
        #expect(root.arrayValue?.map(\.offset) == [5, 8])
    }

    @Test func aCursorWithABaseOffsetGivesAbsoluteOffsetsAndIsConsumed() throws {
        let bytes = Array(#"HTTP{"a":tru}"#.utf8)
        var cursor = ByteCursor(bytes.span.bytes, layer: .json, baseOffset: 1000)
        try cursor.skip(count: 4)
        var thrown: DecodeError?
        do { _ = try JSONDocument(parsing: &cursor) } catch { thrown = error }
        #expect(thrown?.offset == 1012)
        let untouched = cursor.position
        #expect(untouched == 4)

        let good = Array(#"xx{"a":1}"#.utf8)
        var goodCursor = ByteCursor(good.span.bytes, layer: .json, baseOffset: 50)
        try goodCursor.skip(count: 2)
        let document = try JSONDocument(parsing: &goodCursor)
        let atEnd = goodCursor.isAtEnd
        #expect(atEnd)
        #expect(document.root["a"]?.offset == 57)
    }

    // MARK: Numbers

    @Test func integersStayExactAndKeepTheirText() throws {
        let root = try #require(parseJSON("[0, -0, 4295608971, 9223372036854775807, -9223372036854775808, 18446744073709551615]").document).root
        let numbers = (root.arrayValue ?? []).compactMap { $0.numberValue }
        #expect(numbers.map(\.value) == [
            .integer(0), .integer(0), .integer(4_295_608_971), .integer(.max), .integer(.min), .unsignedInteger(.max),
        ])
        #expect(numbers[1].text == "-0")
        let allIntegerLiterals = numbers.allSatisfy { $0.isIntegerLiteral }
        #expect(allIntegerLiterals)
    }

    @Test func integersBeyondUInt64BecomeDoublesButStayIntegerLiterals() throws {
        let number = try #require(parseJSON("18446744073709551616").document?.root.numberValue)
        #expect(number.value == .double(18_446_744_073_709_551_616))
        #expect(number.isIntegerLiteral)
        #expect(number.text == "18446744073709551616")
    }

    @Test func fractionsAndExponentsAreDoublesWithExactIntegerViews() throws {
        let elements = try #require(parseJSON("[50.0, 5e1, 9.999999747e-05, 1E+2, -2.5]").document?.root.arrayValue)
        let numbers = elements.compactMap { $0.numberValue }
        #expect(numbers.map(\.isIntegerLiteral) == [false, false, false, false, false])
        #expect(numbers.map(\.int64Value) == [50, 50, nil, 100, nil])
        #expect(numbers.map(\.uint64Value) == [50, 50, nil, 100, nil])
        #expect(numbers[2].doubleValue == 9.999999747e-05)
        #expect(numbers[2].text == "9.999999747e-05")
    }

    /// Short fractions are read without `Double(_:)`; they must give its value bit for bit, at
    /// the 15-digit edge of that path and past it, signed zeros included.
    @Test func fractionsReadTheSameDoubleAsStrtod() throws {
        var random = SeededRandom(seed: 21)
        var texts = ["0.0", "-0.0", "-0.5", "0.1", "0.3", "23.5", "99.99999999999", "123456789012.345", "1234567890123.45",
                     "0.000000000000001", "9007199254740.993", "0.1000000000000000055511151231257827"]
        for _ in 0 ..< 20_000 {
            let integerDigits = Int.random(in: 1 ... 9, using: &random)
            let fractionDigits = Int.random(in: 1 ... 24 - integerDigits, using: &random)
            let integer = Int.random(in: 0 ..< 2, using: &random) == 0
                ? "0" : "\(Int.random(in: 1 ... 9, using: &random))" + String((1 ..< integerDigits).map { _ in Character("\(Int.random(in: 0 ... 9, using: &random))") })
            let fraction = String((0 ..< fractionDigits).map { _ in Character("\(Int.random(in: 0 ... 9, using: &random))") })
            texts.append((Bool.random(using: &random) ? "-" : "") + integer + "." + fraction)
        }
        let elements = try #require(parseJSON("[" + texts.joined(separator: ",") + "]").document?.root.arrayValue)
        let parsed = elements.map { $0.numberValue?.doubleValue.bitPattern }
        #expect(parsed == texts.map { Double($0)?.bitPattern })
    }

    /// Numbers of digits and a fraction keep their digits, not their text, and make the text when
    /// asked: it must be the literal as written, and numbers must compare as their texts do,
    /// whether parsed or built in code.
    @Test func numbersGiveBackTheirLiteralAndCompareByIt() throws {
        var random = SeededRandom(seed: 14)
        var texts = ["0", "-0", "0.0", "-0.0", "0.05", "0.50", "10.05", "100", "-100.000", "1e5", "1E+2", "-2.5e-3",
                     "9999999999999999999", "99999999999999999999", "-9999999999999999999", "0.000000000000000001",
                     "1234567890.123456789", "12345678901.123456789", "18446744073709551615", "-9223372036854775808"]
        for _ in 0 ..< 5_000 {
            let integerDigits = Int.random(in: 1 ... 12, using: &random)
            let integer = Int.random(in: 0 ..< 4, using: &random) == 0
                ? "0" : "\(Int.random(in: 1 ... 9, using: &random))" + String((1 ..< integerDigits).map { _ in Character("\(Int.random(in: 0 ... 9, using: &random))") })
            let fractionDigits = Int.random(in: 0 ... 12, using: &random)
            let fraction = String((0 ..< fractionDigits).map { _ in Character("\(Int.random(in: 0 ... 9, using: &random))") })
            texts.append((Bool.random(using: &random) ? "-" : "") + integer + (fraction.isEmpty ? "" : "." + fraction))
        }
        let elements = try #require(parseJSON("[" + texts.joined(separator: ",") + "]").document?.root.arrayValue)
        let numbers = elements.compactMap(\.numberValue)
        #expect(numbers.map(\.text) == texts)
        #expect(numbers.map(\.isIntegerLiteral) == texts.map { !$0.contains(".") && !$0.lowercased().contains("e") })
        for (number, text) in zip(numbers, texts).prefix(400) {
            let again = try #require(parseJSON(text).document?.root.numberValue)
            #expect(again == number && again.hashValue == number.hashValue)
            #expect(numbers.filter { $0 == number }.count == texts.filter { $0 == text }.count, "\(text)")
        }
        for integer: Int64 in [0, 7, -7, .max, .min] {
            let parsed = try #require(parseJSON(String(integer)).document?.root.numberValue)
            #expect(JSONNumber(integer) == parsed && JSONNumber(integer).text == String(integer))
        }
        for double in [0.5, -0.0, 21.5, 1e-05, 5e+20, 123.456] {
            let built = try #require(JSONNumber(double))
            #expect(built.text == double.description)
            #expect(parseJSON(double.description).document?.root.numberValue == built)
        }
        #expect(JSONNumber(UInt64.max) == parseJSON("18446744073709551615").document?.root.numberValue)
    }

    @Test func tinyNumbersUnderflowToZeroButHugeOnesAreUnsupported() throws {
        #expect(parseJSON("1e-400").document?.root.numberValue?.doubleValue == 0)
        let error = try #require(parseJSON("[1, -1e400]").error)
        #expect(error == DecodeError(.unsupported, layer: .json, offset: 0, expected: ""))
        #expect(error.offset == 4)
    }

    // MARK: Strings

    @Test func escapesDecode() throws {
        let text = try #require(parseJSON(#""\"\\\/\b\f\n\r\t\u0041\u00e9\u20AC\ud83d\ude00""#).document?.root.stringValue)
        #expect(text == "\"\\/\u{8}\u{c}\n\r\tAé€😀")
    }

    @Test func rawUTF8IsKeptAndValidated() throws {
        #expect(parseJSON("\"Caf\u{e9} \u{1F3E0}\"").document?.root.stringValue == "Caf\u{e9} \u{1F3E0}")
        #expect(parseJSON("\"\u{e9}\\n\u{1F3E0}\"").document?.root.stringValue == "\u{e9}\n\u{1F3E0}")
    }

    // MARK: Malformed input: every error names the right byte

    /// Inputs that break RFC 8259, with the code and offset each must report.
    static let malformedInputs: [(input: [UInt8], code: DecodeError.Code, offset: Int)] = [
        (Array("".utf8), .truncated, 0),
        (Array("   ".utf8), .truncated, 3),
        (Array(#"{"a":1"#.utf8), .truncated, 6),
        (Array(#"{"a":1,"#.utf8), .truncated, 7),
        (Array(#"{"a""#.utf8), .truncated, 4),
        (Array(#"["unterminated"#.utf8), .truncated, 14),
        (Array("[1,2".utf8), .truncated, 4),
        (Array("tru".utf8), .truncated, 3),
        (Array("-".utf8), .truncated, 1),
        (Array("1.".utf8), .truncated, 2),
        (Array("1e+".utf8), .truncated, 3),
        (Array(#""\u12"#.utf8), .truncated, 5),
        (Array(#""\"#.utf8), .truncated, 2),
        (Array(#"{"a" 1}"#.utf8), .malformed, 5),
        (Array(#"{"a":1,}"#.utf8), .malformed, 7),
        (Array("[1,]".utf8), .malformed, 3),
        (Array("[1 2]".utf8), .malformed, 3),
        (Array("{1:2}".utf8), .malformed, 1),
        (Array("01".utf8), .malformed, 1),
        (Array("-012".utf8), .malformed, 2),
        (Array("1.e5".utf8), .malformed, 2),
        (Array("1ex".utf8), .malformed, 2),
        (Array("+1".utf8), .malformed, 0),
        (Array(".5".utf8), .malformed, 0),
        (Array("NaN".utf8), .malformed, 0),
        (Array("trUe".utf8), .malformed, 2),
        (Array("{} x".utf8), .malformed, 3),
        (Array("[1]]".utf8), .malformed, 3),
        (Array(#"["bad \x escape"]"#.utf8), .malformed, 7),
        (Array(#""\u12G4""#.utf8), .malformed, 5),
        (Array(#""\ud800""#.utf8), .malformed, 7),
        (Array(#""\ud800\u0041""#.utf8), .malformed, 7),
        (Array(#""x\udc00""#.utf8), .malformed, 2),
        (Array(#""\ud800"#.utf8), .truncated, 7),
        (Array("[\"tab\there\"]".utf8), .malformed, 5),
        ([0x22, 0x41, 0xFF, 0x22], .malformed, 2),
        ([0x22, 0xC0, 0x80, 0x22], .malformed, 1),
        ([0x22, 0xE0, 0x80, 0x80, 0x22], .malformed, 2),
        ([0x22, 0xED, 0xA0, 0x80, 0x22], .malformed, 2),
        ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], .malformed, 2),
        ([0x22, 0xE2, 0x28, 0xA1, 0x22], .malformed, 2),
        ([0x22, 0xE2, 0x82], .truncated, 3),
        ([0xEF, 0xBB, 0xBF, 0x7B, 0x7D], .malformed, 0),
    ]

    @Test(arguments: malformedInputs.indices)
    func malformedInputThrowsATypedErrorAtTheRightOffset(_ index: Int) throws {
        let (input, code, offset) = Self.malformedInputs[index]
        let error = try #require(parseJSON(input).error, "input \(input) parsed")
        #expect(error.layer == .json)
        #expect(error.code == code, "\(error)")
        #expect(error.offset == offset, "\(error)")
    }

    // MARK: Limits

    @Test func nestingDeeperThanTheLimitIsRefusedAtTheOpeningBracket() throws {
        let deep = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(parseJSON(deep).document != nil)
        let tooDeep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        let error = try #require(parseJSON(tooDeep).error)
        #expect(error.code == .limitExceeded)
        #expect(error.offset == 64)
        let shallow = try #require(parseJSON(#"{"a":{"b":1}}"#, limits: JSONLimits(maximumDepth: 1)).error)
        #expect(shallow.offset == 5)
    }

    @Test func aMillionOpenBracketsFailCleanly() throws {
        let error = try #require(parseJSON([UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)).error)
        #expect(error.code == .limitExceeded)
        #expect(error.offset == 64)
    }

    @Test func depthLimitsStopAtTheDepthTheRestOfTheCodeSupports() throws {
        var limits = JSONLimits(maximumDepth: 2_000_000)
        #expect(limits.maximumDepth == JSONLimits.supportedDepth)
        limits.maximumDepth = .max
        #expect(limits.maximumDepth == JSONLimits.supportedDepth)
        let depth = JSONLimits.supportedDepth
        let deepest = Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        let root = try #require(parseJSON(deepest, limits: limits).document?.root)
        // Writing, comparing and releasing a value this deep must not exhaust the stack.
        var writer = JSONWriter()
        writer.write(root)
        #expect(writer.bytes == deepest)
        #expect(root == (try #require(parseJSON(deepest, limits: limits).document?.root)))
        let tooDeep = try #require(parseJSON([UInt8](repeating: UInt8(ascii: "["), count: depth + 1), limits: limits).error)
        #expect(tooDeep.code == .limitExceeded)
        #expect(tooDeep.offset == depth)
    }

    @Test func sizeCountAndLengthLimitsAreEnforced() throws {
        #expect(parseJSON("[1,2]", limits: JSONLimits(maximumDocumentSize: 4)).error?.code == .limitExceeded)
        let count = try #require(parseJSON("[1,2,3]", limits: JSONLimits(maximumValueCount: 3)).error)
        #expect(count.code == .limitExceeded)
        #expect(count.offset == 5)
        let string = try #require(parseJSON(#"["abc","abcde"]"#, limits: JSONLimits(maximumStringLength: 4)).error)
        #expect(string.code == .limitExceeded)
        #expect(string.offset == 7)
        let escaped = try #require(parseJSON(#"["ab\ncde"]"#, limits: JSONLimits(maximumStringLength: 4)).error)
        #expect(escaped.code == .limitExceeded)
        let number = try #require(parseJSON("[1, 123456]", limits: JSONLimits(maximumNumberLength: 5)).error)
        #expect(number.code == .limitExceeded)
        #expect(number.offset == 4)
    }

    // MARK: Robustness

    @Test func everyPrefixOfAValidDocumentFailsCleanlyAsTruncated() throws {
        let text = Array(#"{"accessories":[{"aid":1,"services":[{"iid":1,"type":"3E","v":-1.5e3,"s":"\u00e9\ud83d\ude00é","ok":true,"n":null}]}]}"#.utf8)
        #expect(parseJSON(text).document != nil)
        for length in 0 ..< text.count {
            let error = parseJSON(Array(text[..<length])).error
            // A prefix ending inside a number after a digit is a complete number only at top level;
            // here everything is nested, so every proper prefix is truncated.
            #expect(error?.code == .truncated, "prefix of \(length) bytes: \(String(describing: error))")
            #expect(error?.offset == length)
        }
    }

    @Test func randomBytesEitherParseOrNameTheByteThatBrokeTheGrammar() throws {
        var generator = SeededRandom(seed: 0x5EED)
        let alphabet = Array(#"{}[]:,"\ tfnrue0123456789.-+eE"#.utf8) + [0x00, 0x80, 0xC3, 0xA9, 0xED, 0xF0, 0xFF]
        var parsed = 0
        var outcomes: [DecodeError.Code: Int] = [:]
        for _ in 0 ..< 3_000 {
            let length = Int(generator.next() % 40)
            let bytes = (0 ..< length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
            switch parseJSON(bytes) {
            case .success(let document):
                // Whatever parses survives a round trip through the writer.
                var writer = JSONWriter()
                writer.write(document.root)
                #expect(parseJSON(writer.bytes).document?.root == document.root, "\(bytes)")
                parsed += 1
            case .failure(let error):
                #expect(error.layer == .json)
                // Truncation is found where the input ends; a broken rule at a byte inside it.
                switch error.code {
                case .truncated: #expect(error.offset == bytes.count, "\(bytes): \(error)")
                case .malformed: #expect(error.offset < bytes.count, "\(bytes): \(error)")
                default: break
                }
                outcomes[error.code, default: 0] += 1
            }
        }
        // The alphabet is chosen so that every kind of outcome occurs.
        #expect(parsed > 0 && outcomes[.truncated, default: 0] > 0 && outcomes[.malformed, default: 0] > 0)
    }
}

