import Testing
@testable import HAPJSON
import TestSupport

@Suite struct JSONWriterTests {
    @Test func writesCompactJSONWithMembersInOrder() {
        let value = JSONValue.object([
            "characteristics": .array([.object(["aid": .number(JSONNumber(1)), "iid": .number(JSONNumber(10)),
                                                "value": .number(JSONNumber(23.5)!)])]),
            "pid": .number(JSONNumber(UInt64.max)),
            "ok": .bool(true), "none": .null,
        ])
        #expect(value.description == #"{"characteristics":[{"aid":1,"iid":10,"value":23.5}],"pid":18446744073709551615,"ok":true,"none":null}"#)
    }

    @Test func escapesQuotesBackslashesAndEveryControlCharacter() {
        var writer = JSONWriter()
        writer.string("a\"b\\c/\u{0}\u{1}\u{8}\u{9}\u{a}\u{c}\u{d}\u{1f}\u{7f}é😀")
        #expect(writer.text == #""a\"b\\c/\u0000\u0001\b\t\n\f\r\u001f"# + "\u{7f}é😀\"")
    }

    @Test func parsedNumbersAreWrittenAsTheSenderWroteThem() throws {
        let root = try #require(parseJSON("[9.999999747e-05,1E+2,-0,50.0]").document?.root)
        #expect(root.description == "[9.999999747e-05,1E+2,-0,50.0]")
    }

    @Test func streamingPutsCommasBetweenSiblingsOnly() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("a")
        writer.beginArray()
        writer.integer(-1)
        writer.unsignedInteger(2)
        writer.double(0.5)
        writer.double(.infinity)
        writer.beginObject()
        writer.endObject()
        writer.endArray()
        writer.key("b")
        writer.string("x")
        writer.endObject()
        #expect(writer.text == #"{"a":[-1,2,0.5,null,{}],"b":"x"}"#)
    }

    @Test func parsingWhatWasWrittenGivesBackTheSameValue() throws {
        var generator = SeededRandom(seed: 2024)
        for round in 0 ..< 400 {
            let value = randomValue(depth: 0, &generator)
            var writer = JSONWriter()
            writer.write(value)
            let parsed = try #require(parseJSON(writer.bytes).document, "round \(round): \(writer.text)")
            #expect(parsed.root == value, "round \(round): \(writer.text)")
        }
    }

    private func randomValue(depth: Int, _ generator: inout SeededRandom) -> JSONValue {
        let kind = depth >= 5 ? Int.random(in: 0 ..< 6, using: &generator) : Int.random(in: 0 ..< 8, using: &generator)
        switch kind {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .number(JSONNumber(Int64(bitPattern: generator.next()) >> Int.random(in: 0 ..< 64, using: &generator)))
        case 3: return .number(JSONNumber(UInt64.random(in: UInt64(Int64.max) ... .max, using: &generator)))
        case 4:
            let double = Double(bitPattern: generator.next())
            return .number(JSONNumber(double) ?? JSONNumber(Double.random(in: -1e6 ... 1e6, using: &generator))!)
        case 5: return .string(randomString(&generator))
        case 6:
            return .array((0 ..< Int.random(in: 0 ..< 5, using: &generator)).map { _ in randomValue(depth: depth + 1, &generator) })
        default:
            return .object((0 ..< Int.random(in: 0 ..< 5, using: &generator)).map { _ in
                JSONMember(key: randomString(&generator), value: randomValue(depth: depth + 1, &generator))
            })
        }
    }

    /// Strings mixing ASCII, everything the writer must escape, and characters of every UTF-8 length.
    private func randomString(_ generator: inout SeededRandom) -> String {
        let pool: [Unicode.Scalar] = ["a", "Z", "0", " ", "\"", "\\", "/", "\u{0}", "\u{8}", "\u{1f}", "\u{7f}",
                                      "é", "\u{7ff}", "\u{800}", "€", "\u{fffd}", "\u{ffff}", "😀", "\u{10ffff}"]
        var string = ""
        for _ in 0 ..< Int.random(in: 0 ..< 12, using: &generator) {
            string.unicodeScalars.append(pool[Int.random(in: 0 ..< pool.count, using: &generator)])
        }
        return string
    }
}
