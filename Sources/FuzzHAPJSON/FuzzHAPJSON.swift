import FuzzSupport
import HAPJSON
import WireParsing

/// Fuzz target: the JSON reader and every HAP JSON body read from its result: the accessory
/// database (`/accessories`), and the `/characteristics` and `/prepare` bodies.
///
/// The input is one HTTP body. It is parsed under the default limits and under tight ones, so
/// that both the deep paths and the limit paths run. Besides not crashing, the reader must keep
/// these promises:
/// - a parsed document written out by `JSONWriter` parses back to the same value;
/// - errors name layer `json` or `hap-json` and an offset inside the body;
/// - an accessory database differs from itself in nothing;
/// - the streaming `/accessories` reader (production's) and the tree decoder agree: the same
///   database with the same diagnostics and `json`, or the same error at the same offset.
enum HAPJSONHarness: FuzzHarness {
    static let name = "FuzzHAPJSON"

    static let tightLimits = JSONLimits(
        maximumDocumentSize: 2_048, maximumDepth: 6, maximumValueCount: 128, maximumStringLength: 64, maximumNumberLength: 24)
    static let jsonLayers: Set<DecodeError.Layer> = [.json, .hapJSON]

    static func run(_ input: UnsafeRawBufferPointer) {
        let bytes = Array(input)
        for limits in [JSONLimits(), tightLimits] {
            let streamed = Result { () throws(DecodeError) in try AccessoryDatabase(bytes: bytes, limits: limits) }
            let document: JSONDocument
            do {
                document = try JSONDocument(bytes: bytes, limits: limits)
            } catch {
                fuzzCheck(error, within: 0 ... bytes.count, layers: jsonLayers)
                checkReaderAgrees(streamed, with: .failure(error))
                continue
            }
            checkWriterRoundTrip(document.root)
            let tree = Result { () throws(DecodeError) in try AccessoryDatabase(document: document) }
            checkReaderAgrees(streamed, with: tree)
            decodeBodies(document, database: tree, bodyCount: bytes.count)
        }
    }

    /// Equal databases compare their `json`, so the streamed one parses its kept body again here.
    private static func checkReaderAgrees(_ streamed: Result<AccessoryDatabase, DecodeError>, with tree: Result<AccessoryDatabase, DecodeError>) {
        switch (streamed, tree) {
        case (.success(let streamedDatabase), .success(let treeDatabase)):
            fuzzInvariant(streamedDatabase == treeDatabase, "the streaming reader decodes another database than the tree decoder")
        case (.failure(let streamedError), .failure(let treeError)):
            fuzzInvariant(streamedError == treeError && streamedError.offset == treeError.offset,
                          "the streaming reader fails with \(streamedError), the tree decoder with \(treeError)")
        case (.success, .failure(let treeError)):
            fuzzInvariant(false, "the streaming reader decodes a database the tree decoder rejects: \(treeError)")
        case (.failure(let streamedError), .success):
            fuzzInvariant(false, "the streaming reader rejects a database the tree decoder reads: \(streamedError)")
        }
    }

    private static func checkWriterRoundTrip(_ root: JSONValue) {
        var writer = JSONWriter()
        writer.write(root)
        do {
            let reparsed = try JSONDocument(bytes: writer.bytes, limits: JSONLimits(maximumDepth: JSONLimits.supportedDepth))
            fuzzInvariant(reparsed.root == root, "JSONWriter output parses to a different value: \(writer.text)")
        } catch {
            fuzzInvariant(false, "JSONWriter output does not parse (\(error)): \(writer.text)")
        }
    }

    private static func decodeBodies(_ document: JSONDocument, database decoded: Result<AccessoryDatabase, DecodeError>, bodyCount: Int) {
        do {
            let database = try decoded.get()
            for issue in database.conformanceIssues() { _ = issue.description }
            fuzzInvariant(AccessoryDatabaseDiff(from: database, to: database).isEmpty, "a database differs from itself")
            for accessory in database.accessories {
                _ = accessory.name
                for service in accessory.services {
                    _ = service.name
                    for characteristic in service.characteristics {
                        let id = CharacteristicID(aid: accessory.aid, iid: characteristic.iid)
                        fuzzInvariant(database.characteristic(id) != nil, "characteristic \(id) cannot be looked up")
                        if let value = characteristic.jsonValue { _ = characteristic.interpret(value) }
                    }
                }
            }
        } catch {
            fuzzCheck(error, within: 0 ... bodyCount, layers: jsonLayers)
        }
        decode(CharacteristicReadResponse.self, document, bodyCount: bodyCount)
        decode(CharacteristicWriteRequest.self, document, bodyCount: bodyCount)
        decode(CharacteristicWriteResponse.self, document, bodyCount: bodyCount)
        decode(CharacteristicEvent.self, document, bodyCount: bodyCount)
        decode(PrepareRequest.self, document, bodyCount: bodyCount)
        decode(StatusResponse.self, document, bodyCount: bodyCount)
    }

    private static func decode<Body: HAPJSONBody>(_ type: Body.Type, _ document: JSONDocument, bodyCount: Int) {
        do {
            _ = try Body(document: document)
        } catch {
            fuzzCheck(error, within: 0 ... bodyCount, layers: jsonLayers)
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHAPJSON(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    HAPJSONHarness.testOneInput(data, count)
}

#if !FUZZING
@main extension HAPJSONHarness {}
#endif
