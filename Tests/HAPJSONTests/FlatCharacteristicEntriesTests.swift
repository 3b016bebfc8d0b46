import Testing
import WireParsing
@testable import HAPJSON
import TestSupport

/// The flat-entries fast path must be invisible: every body decodes to the same entries,
/// diagnostics and errors whichever path reads it.
@Suite struct FlatCharacteristicEntriesTests {
    private struct Outcome<Entry: Equatable>: Equatable {
        var entries: [Entry]?
        var diagnostics: [HAPJSONDiagnostic]?
        var error: DecodeError?
        var errorOffset: Int?
    }

    private func decode<Body: HAPJSONBody, Entry: Equatable>(
        _ bytes: [UInt8], as _: Body.Type, fast: Bool, entries: (Body) -> [Entry], diagnostics: (Body) -> [HAPJSONDiagnostic]
    ) -> Outcome<Entry> {
        do {
            let body: Body
            if fast {
                var cursor = ByteCursor(bytes.span.bytes, layer: .json)
                body = try Body(parsing: &cursor, limits: JSONLimits())
            } else {
                body = try Body(document: JSONDocument(bytes: bytes))
            }
            return Outcome(entries: entries(body), diagnostics: diagnostics(body))
        } catch {
            return Outcome(error: error, errorOffset: error.offset)
        }
    }

    private func expectBothPathsAgree(_ text: String) {
        let bytes = Array(text.utf8)
        let event = (decode(bytes, as: CharacteristicEvent.self, fast: true, entries: \.entries, diagnostics: \.diagnostics),
                     decode(bytes, as: CharacteristicEvent.self, fast: false, entries: \.entries, diagnostics: \.diagnostics))
        #expect(event.0 == event.1, "\(text)")
        let read = (decode(bytes, as: CharacteristicReadResponse.self, fast: true, entries: \.entries, diagnostics: \.diagnostics),
                    decode(bytes, as: CharacteristicReadResponse.self, fast: false, entries: \.entries, diagnostics: \.diagnostics))
        #expect(read.0 == read.1, "\(text)")
        let write = (decode(bytes, as: CharacteristicWriteResponse.self, fast: true, entries: \.entries, diagnostics: \.diagnostics),
                     decode(bytes, as: CharacteristicWriteResponse.self, fast: false, entries: \.entries, diagnostics: \.diagnostics))
        #expect(write.0 == write.1, "\(text)")
        let request = (decode(bytes, as: CharacteristicWriteRequest.self, fast: true, entries: \.entries, diagnostics: \.diagnostics),
                       decode(bytes, as: CharacteristicWriteRequest.self, fast: false, entries: \.entries, diagnostics: \.diagnostics))
        #expect(request.0 == request.1, "\(text)")
        var cursor = ByteCursor(bytes.span.bytes, layer: .json)
        let pids = ((try? CharacteristicWriteRequest(parsing: &cursor))?.pid, (try? CharacteristicWriteRequest(document: JSONDocument(bytes: bytes)))?.pid)
        #expect(pids.0 == pids.1, "\(text)")
    }

    @Test(arguments: [
        #"{"characteristics":[{"aid":1,"iid":10,"value":23.5}]}"#,
        #"{"characteristics":[{"aid":2,"iid":9,"value":true},{"aid":3,"iid":9,"value":"text \u00e9\n"}]}"#,
        #" { "characteristics" : [ { "iid" : 9 , "aid" : 2 , "status" : -70402 } ] } "#,
        #"{"characteristics":[{"aid":2,"iid":9,"status":0},{"aid":3,"iid":9}]}"#,
        #"{"characteristics":[{"aid":2,"iid":9,"status":70402}]}"#,
        #"{"characteristics":[{"aid":2,"iid":9,"ev":1}]}"#,
        #"{"characteristics":[{"aid":2,"iid":9,"ev":true,"value":null}]}"#,
        #"{"characteristics":[{"aid":2,"iid":9,"value":[1,2]}]}"#,
        #"{"characteristics":[{"aid":2,"iid":9,"value":1,"value":2}]}"#,
        #"{"characteristics":[{"aid":0,"iid":9,"value":1}]}"#,
        #"{"characteristics":[{"aid":2,"value":1}]}"#,
        #"{"characteristics":[{"aid":2,"iid":9,"format":"bool"}]}"#,
        #"{"characteristics":[],"pid":5}"#,
        #"{"characteristics":[{"aid":2,"iid":9,"value":1}],"pid":5}"#,
        #"{"characteristics":[{"aid":2,"iid":9,"value":1,"r":true}]}"#,
        #"{"characteristics":[]}"#,
        #"{"characteristics":[{"aid":2,"iid":9,"value":1}"#,
        #"{"characteristics":[{"aid":2,"iid":9,"value":01}]}"#,
        #"{"characteristics":[{"aid":2,"iid":9,"value":"\ud800"}]}"#,
        #"{"characteristics":[{"aid":2,"iid":9,"value":1.5e400}]}"#,
        #"{"characteristics":[{"aid":18446744073709551615,"iid":9,"value":-1}]} x"#,
        #"{"characteristics":[{"aidx":2,"iid":9,"value":1}]}"#,
        #"{"characteristics":[{"aid":2,"iid":9,"values":1,"statu":0}]}"#,
        #"{"characteristics":[{"aid":2,"iid":9,"e":true}]}"#,
        #"{"characteristics":[{"aid":2,"iid":9,"ev\u0031":true}]}"#,
        #"{"characteristics":[{"iid":1,"aid"#,
        #"[]"#,
    ])
    func bothPathsAgreeOnEveryKindOfBody(body: String) {
        expectBothPathsAgree(body)
    }

    @Test func theCommonShapeTakesTheFastPathAndOthersDoNot() {
        func fast(_ text: String) -> Bool {
            let bytes = Array(text.utf8)
            let cursor = ByteCursor(bytes.span.bytes, layer: .json)
            return JSONReader.flatCharacteristicEntries(in: cursor, limits: JSONLimits()) != nil
        }
        #expect(fast(#"{"characteristics":[{"aid":1,"iid":10,"value":23.5},{"aid":1,"iid":11,"status":-70402}]}"#))
        // The shortest rest after a key's opening quote, which the key's comparison as one word needs.
        #expect(fast(#"{"characteristics":[{"iid":1,"aid":1}]}"#))
        #expect(fast(#"{"characteristics":[{"aid":1,"iid":1,"ev":false}]}"#))
        #expect(!fast(#"{"characteristics":[{"aid":1,"iid":10,"value":[1]}]}"#))
        #expect(!fast(#"{"characteristics":[{"aid":1,"iid":10,"valuee":1}]}"#))
        #expect(!fast(#"{"characteristics":[{"aid":1,"iid":10,"status":70402}]}"#))
    }

    @Test func bothPathsAgreeOnRandomBodies() {
        var generator = SeededRandom(seed: 0x4841_5053)
        let keys = ["aid", "iid", "value", "status", "ev", "type", "perms"]
        let scalars = ["1", "0", "-1", "23.5", "true", "false", "null", "\"on\"", "-70402", "70402", "1e2", "[1]", "{}", "\"\\u0041\"",
                       "10", "007", "1.0", "2E0", "18446744073709551615", "18446744073709551616"]
        for _ in 0..<2000 {
            var entries: [String] = []
            for _ in 0..<Int(generator.next() % 4) {
                var members: [String] = []
                for _ in 0..<Int(generator.next() % 5) {
                    let key = keys[Int(generator.next() % UInt64(keys.count))]
                    let value = scalars[Int(generator.next() % UInt64(scalars.count))]
                    members.append("\"\(key)\":\(value)")
                }
                entries.append("{" + members.joined(separator: ",") + "}")
            }
            var text = "{\"characteristics\":[" + entries.joined(separator: ",") + "]}"
            if generator.next() % 8 == 0 { text.removeLast(Int(generator.next() % UInt64(text.count))) }
            expectBothPathsAgree(text)
        }
    }
}
