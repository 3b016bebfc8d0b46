import Testing
import TestSupport
import WireParsing
@testable import HAPJSON

/// The streaming decoder (`AccessoryDatabase(parsing:)`, which the analyzer uses) against the
/// decoder of a parsed tree (`AccessoryDatabase(document:)`) as the oracle: the same database,
/// diagnostics and `json`, or the same error, for every body.
@Suite struct AccessoryDatabaseReaderTests {
    /// Either way's outcome, errors compared with their offsets and limits.
    private enum Outcome: Equatable, CustomStringConvertible {
        case decoded(AccessoryDatabase)
        case failed(String)

        init(_ decode: () throws(DecodeError) -> AccessoryDatabase) {
            do {
                self = .decoded(try decode())
            } catch {
                self = .failed("\(error) limit \(error.limit.map { "\($0)" } ?? "none")")
            }
        }

        var description: String {
            switch self {
            case .decoded(let database): "\(database.accessories.count) accessories, diagnostics \(database.diagnostics)"
            case .failed(let error): error
            }
        }
    }

    /// Decodes `bytes` both ways and expects one outcome; returns whether it decoded.
    @discardableResult
    private func expectSameOutcome(_ bytes: [UInt8], limits: JSONLimits = JSONLimits(), binaryValues: BinaryValueEncoding = .base64,
                                   _ comment: String) -> Bool {
        let tree = Outcome { () throws(DecodeError) in
            try AccessoryDatabase(document: JSONDocument(bytes: bytes, limits: limits), binaryValues: binaryValues)
        }
        let streamed = Outcome { () throws(DecodeError) in try AccessoryDatabase(bytes: bytes, limits: limits, binaryValues: binaryValues) }
        #expect(streamed == tree, "\(comment): \(String(decoding: bytes, as: UTF8.self).prefix(300))")
        if case .decoded(let left) = tree, case .decoded(let right) = streamed {
            #expect(left.diagnostics == right.diagnostics, "\(comment)")
            #expect(left.json == right.json, "\(comment)")
        }
        if case .decoded = tree { return true }
        return false
    }

    @Test(arguments: Fixtures.realDatabaseNames)
    func decodesEveryRealDatabaseAsTheTreeDoes(_ name: String) throws {
        let bytes = try Fixtures.realDatabase(name)
        #expect(expectSameOutcome(bytes, name))
        #expect(expectSameOutcome(bytes, binaryValues: .hex, "\(name) in hex"))
        #expect(expectSameOutcome(Array(#"{"accessories":"#.utf8) + bytes + Array(#","extra":1}"#.utf8), "\(name) wrapped"))
    }

    /// Keys in every order, repeated keys and members HAP does not define, at every level.
    @Test(arguments: Fixtures.realDatabaseNames)
    func decodesShuffledAndRepeatedMembersAsTheTreeDoes(_ name: String) throws {
        let root = try JSONDocument(bytes: Fixtures.realDatabase(name)).root
        var generator = SeededRandom(seed: UInt64(name.utf8.reduce(0) { $0 &* 31 &+ Int($1) }.magnitude))
        for round in 0 ..< 8 {
            var writer = JSONWriter()
            writer.write(Self.shuffled(root, &generator))
            expectSameOutcome(writer.bytes, "\(name) shuffled, round \(round)")
        }
    }

    private static let extraMembers: [JSONMember] = [
        JSONMember(key: "aid", value: JSONValue(.string("1"))), JSONMember(key: "iid", value: JSONValue(.number(JSONNumber(0)))),
        JSONMember(key: "type", value: JSONValue(.string("not a UUID"))), JSONMember(key: "services", value: JSONValue(.object([]))),
        JSONMember(key: "characteristics", value: JSONValue(.null)), JSONMember(key: "perms", value: JSONValue(.array([JSONValue(.bool(true))]))),
        JSONMember(key: "format", value: JSONValue(.number(JSONNumber(3)))), JSONMember(key: "primary", value: JSONValue(.number(JSONNumber(2)))),
        JSONMember(key: "stype", value: JSONValue(.string("lightbulb"))), JSONMember(key: "accessories", value: JSONValue(.bool(false))),
        JSONMember(key: "linked", value: JSONValue(.array([JSONValue(.string("x"))]))),
        JSONMember(key: "valid-values-range", value: JSONValue(.array([JSONValue(.number(JSONNumber(3)))]))),
    ]

    /// `value` with each object's members shuffled, and now and then one repeated or one from
    /// `extraMembers` added, and now and then an array element replaced by a scalar.
    private static func shuffled(_ value: JSONValue, _ generator: inout SeededRandom) -> JSONValue {
        switch value.content {
        case .object(let members):
            var members = members.map { JSONMember(key: $0.key, value: shuffled($0.value, &generator)) }
            members.shuffle(using: &generator)
            if !members.isEmpty, Int.random(in: 0 ..< 12, using: &generator) == 0 {
                members.append(members.randomElement(using: &generator)!)
            }
            if Int.random(in: 0 ..< 10, using: &generator) == 0 {
                members.insert(extraMembers.randomElement(using: &generator)!, at: Int.random(in: 0 ... members.count, using: &generator))
            }
            return JSONValue(.object(members))
        case .array(let elements):
            var elements = elements.map { shuffled($0, &generator) }
            if !elements.isEmpty, Int.random(in: 0 ..< 25, using: &generator) == 0 {
                elements[Int.random(in: 0 ..< elements.count, using: &generator)] = JSONValue(.number(JSONNumber(7)))
            }
            return JSONValue(.array(elements))
        default:
            return value
        }
    }

    /// Bytes cut, repeated and replaced: syntax errors at every depth, truncation, and values of
    /// the wrong kind, each reported at the same byte.
    @Test func decodesMutatedBodiesAsTheTreeDoes() throws {
        let pieces = [#"{"#, #"}"#, #"["#, #"]"#, #","#, #":"#, #"""#, #"\u00e9"#, #"1e400"#, #"-0.5"#, #"null"#, #" "#, #""aid":1,"#]
            .map { Array($0.utf8) }
        var generator = SeededRandom(seed: 0x6163_6364_62)
        var decoded = 0
        for name in Fixtures.realDatabaseNames {
            let original = try Fixtures.realDatabase(name)
            for round in 0 ..< 12 {
                var bytes = original
                for _ in 0 ... Int.random(in: 0 ..< 3, using: &generator) {
                    let start = Int.random(in: 0 ..< bytes.count, using: &generator)
                    let end = min(bytes.count, start + Int.random(in: 0 ..< 24, using: &generator))
                    switch Int.random(in: 0 ..< 4, using: &generator) {
                    case 0: bytes.removeSubrange(start ..< end)
                    case 1: bytes.insert(contentsOf: bytes[start ..< end], at: start)
                    case 2: bytes.replaceSubrange(start ..< end, with: pieces.randomElement(using: &generator)!)
                    default: bytes.removeSubrange(start...)
                    }
                }
                if expectSameOutcome(bytes, "\(name) mutated, round \(round)") { decoded += 1 }
            }
        }
        // Some mutations must leave JSON to decode, or the diagnostics would go untested.
        #expect(decoded > 20)
    }

    /// The limits stop both at the same byte: the depth at a characteristic's values, the count of
    /// values and the length of strings part-way through.
    @Test(arguments: [
        JSONLimits(maximumDepth: 6), JSONLimits(maximumDepth: 7), JSONLimits(maximumDepth: 8), JSONLimits(maximumValueCount: 500),
        JSONLimits(maximumStringLength: 20), JSONLimits(maximumNumberLength: 3), JSONLimits(maximumDocumentSize: 50_000),
    ])
    func stopsAtTheSameLimitsAsTheTree(_ limits: JSONLimits) throws {
        expectSameOutcome(try Fixtures.realDatabase("ecobee3_lite"), limits: limits, "ecobee3_lite")
        expectSameOutcome(Array(#"{"accessories":[{"aid":1,"services":[{"iid":1,"type":"3E","characteristics":[{"iid":2,"type":"23","value":[[[["x"]]]]}]}]}]}"#.utf8),
                          limits: limits, "nested value")
    }

    @Test(arguments: ["", " ", "1", "\"x\"", "{}", "[]", "{\"accessories\":{}}", "{\"accessories\":[],\"accessories\":3}",
                      "{\"accessories\":3,\"accessories\":[]}", "[1,{},[]] x", "[{\"aid\":1,\"services\":[],\"services\":{}}]",
                      "[{\"services\":[{\"iid\":1,\"type\":\"3E\",\"characteristics\":[{\"iid\":1,\"type\":\"x\",\"ev\":3}]}],\"aid\":9}]",
                      // A characteristic member named "" holding an array (found by FuzzHAPJSON).
                      "[{\"aid\":1,\"services\":[{\"iid\":1,\"type\":\"3E\",\"characteristics\":[{\"iid\":2,\"\":[\"pr\"],\"type\":\"23\"}]}]}]"])
    func decodesSmallBodiesAsTheTreeDoes(_ text: String) {
        expectSameOutcome(Array(text.utf8), text)
    }
}
