import FuzzSupport
import TLV8
import WireParsing

/// Fuzz target: TLV8 bodies and the pairing messages read from them.
///
/// The input is one body as it would arrive in a `/pair-setup`, `/pair-verify` or `/pairings`
/// request or response. Besides not crashing, the codec must keep these promises:
/// - the strict and lenient decodes agree: a body the strict reader accepts decodes leniently to
///   the same items with no diagnostics, and a body it rejects leaves at least one diagnostic;
/// - the borrowing reader and the owned body see the same items;
/// - an accepted body re-encodes to bytes that decode to the same items;
/// - a pairing message decoded without diagnostics re-encodes to a body that decodes to it again;
/// - read as each characteristic schema (`TLV8ValueSchema.all`), the value breaks, if at all,
///   at an offset inside it; no secret is kept unless asked for; zeroing the secrets keeps the
///   length and every field that is not a secret.
enum TLV8Harness: FuzzHarness {
    static let name = "FuzzTLV8"

    static func run(_ input: UnsafeRawBufferPointer) {
        let bytes = RawSpan(_unsafeBytes: input)
        let strictItems = readStrictly(bytes)

        var strictCursor = ByteCursor(bytes, layer: .tlv8)
        let strict: TLV8Body?
        do {
            strict = try TLV8Body(parsing: &strictCursor)
        } catch {
            strict = nil
        }
        var lenientCursor = ByteCursor(bytes, layer: .tlv8)
        let lenient = TLV8Body(parsingLeniently: &lenientCursor)

        fuzzInvariant((strict == nil) == (strictItems == nil), "TLV8Reader and TLV8Body disagree on accepting the body")
        if let strict {
            fuzzInvariant(strict.items == strictItems, "TLV8Reader and TLV8Body read different items")
            fuzzInvariant(lenient.diagnostics.isEmpty, "a strictly valid body has lenient diagnostics \(lenient.diagnostics)")
            fuzzInvariant(lenient.items == strict.items, "strict and lenient decodes of a valid body differ")
            checkRoundTrip(strict)
        } else {
            fuzzInvariant(!lenient.diagnostics.isEmpty, "a body the strict decode rejects has no lenient diagnostic")
        }

        for item in lenient.items {
            _ = item.fieldName
            _ = item.displayValue
        }
        for diagnostic in lenient.diagnostics {
            _ = diagnostic.description
        }
        decodePairingMessages(lenient, expectedState: PairingState(rawValue: UInt8(input.count % 7)))
        decodeCharacteristicValues(bytes, count: input.count)
    }

    private static func decodeCharacteristicValues(_ bytes: RawSpan, count: Int) {
        let original = bytes.withUnsafeBytes { Array($0) }
        for schema in TLV8ValueSchema.all {
            let value = TLV8ValueDecoder.decode(bytes, as: schema)
            if let error = value.error {
                fuzzInvariant((0 ... count).contains(error.offset), "\(schema.name) breaks at \(error.offset), outside the value")
            }
            fuzzInvariant(!containsSecretBytes(value.fields), "\(schema.name) kept a secret it was not asked for")
            fuzzInvariant(value.secretsWithheld == !value.secretRanges.isEmpty, "\(schema.name) withheld secrets it does not locate")
            let redacted = value.withoutSecrets(original)
            fuzzInvariant(redacted.count == count, "removing secrets changed the length")
            if value.error == nil {
                let again = TLV8ValueDecoder.decode(redacted, as: schema)
                fuzzInvariant(again.error == nil && again.fields.count == value.fields.count, "\(schema.name) without its secrets reads differently")
            }
        }
    }

    private static func containsSecretBytes(_ fields: [TLV8Field]) -> Bool {
        fields.contains { field in
            switch field.value {
            case .secret(_, let bytes): bytes != nil
            case .fields(let inner): containsSecretBytes(inner)
            default: false
            }
        }
    }

    /// The items a strict `TLV8Reader` hands out, or nil when it throws.
    private static func readStrictly(_ bytes: RawSpan) -> [TLV8Item]? {
        var reader = TLV8Reader(bytes)
        var items: [TLV8Item] = []
        do {
            while let element = try reader.next() {
                var fragmentBytes = 0
                element.forEachFragment { fragmentBytes += $0.byteCount }
                fuzzInvariant(fragmentBytes == element.valueLength, "fragments of an element do not add up to its value length")
                let joined = element.withValue { Array($0) }
                let item = TLV8Item(element)
                fuzzInvariant(joined == item.value, "withValue and value of an element differ")
                items.append(item)
            }
        } catch {
            return nil
        }
        return items
    }

    private static func checkRoundTrip(_ body: TLV8Body) {
        let encoded = body.encoded()
        var cursor = ByteCursor(encoded.span.bytes, layer: .tlv8)
        do {
            let decoded = try TLV8Body(parsing: &cursor)
            fuzzInvariant(
                decoded.items.map { [$0.type.rawValue] + $0.value } == body.items.map { [$0.type.rawValue] + $0.value },
                "a valid body does not survive encoding and decoding")
        } catch {
            fuzzInvariant(false, "the encoding of a valid body does not decode: \(error)")
        }
    }

    private static func decodePairingMessages(_ body: TLV8Body, expectedState: PairingState?) {
        let setup = PairSetupMessage.decode(body, expectedState: expectedState)
        if let message = setup.content, setup.diagnostics.isEmpty {
            let again = PairSetupMessage.decode(reparse(message.encoded()), expectedState: expectedState)
            fuzzInvariant(again.content == message, "pair-setup \(message.state) does not survive encoding")
        }
        let verify = PairVerifyMessage.decode(body, expectedState: expectedState)
        if let message = verify.content, verify.diagnostics.isEmpty {
            let again = PairVerifyMessage.decode(reparse(message.encoded()), expectedState: expectedState)
            fuzzInvariant(again.content == message, "pair-verify \(message.state) does not survive encoding")
        }
        let pairings = PairingsMessage.decode(body, expectedState: expectedState)
        if let message = pairings.content, pairings.diagnostics.isEmpty {
            let again = PairingsMessage.decode(reparse(message.encoded()), expectedState: expectedState, requestMethod: message.method)
            fuzzInvariant(again.content == message, "pairings \(message.state) does not survive encoding")
        }
        for context in PairingSubTLV.Context.allCases {
            _ = PairingSubTLV.decode(body, for: context)
        }
        for diagnostic in setup.diagnostics + verify.diagnostics + pairings.diagnostics {
            _ = diagnostic.description
        }
    }

    private static func reparse(_ encoded: [UInt8]) -> TLV8Body {
        var cursor = ByteCursor(encoded.span.bytes, layer: .tlv8)
        return TLV8Body(parsingLeniently: &cursor)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTLV8(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    TLV8Harness.testOneInput(data, count)
}

#if !FUZZING
@main extension TLV8Harness {}
#endif
