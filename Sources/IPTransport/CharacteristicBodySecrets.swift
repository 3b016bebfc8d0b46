import HAPCatalog
import HAPEvents
import HAPJSON
import HTTP1
import TLV8
import WireParsing

/// Key material inside the TLV8 values of a `/characteristics` body — the SRTP master keys and
/// salts a controller writes to Setup Endpoints and the camera echoes back — kept out of what
/// reports print unless the user asks for secrets (`--show-keys`).
///
/// The secret bytes are zeroed inside the value's base64 text, which keeps its length, so the
/// body stays as long as it was sent and every other byte is as sent; a value whose text is
/// not plain base64 between its quotes (an escaped `\/`) cannot be rewritten in place, and then
/// the body is withheld whole, as is a `/characteristics` body too broken to read when the
/// accessory has such characteristics.
enum CharacteristicBodySecrets {
    /// What reports show instead of `message.body` of a `/characteristics` request, response or
    /// EVENT, or nil when the body holds no key material. `written` is true for a controller's
    /// write, whose structure may differ from what the accessory reports.
    /// `database` is the connection's, given only when it `holdsSecretValues` (which its
    /// caller keeps rather than judging the whole database again for every message).
    static func withoutSecrets(
        _ message: HTTPMessage, databaseWithSecrets database: AccessoryDatabase?, written: Bool, limits: JSONLimits
    ) -> HTTPMessageEvent.BodyWithoutSecrets? {
        guard let database, !message.body.isEmpty else { return nil }
        // The database has values that hold keys: a body too broken to read may be one of them.
        return rewrite(message, limits: limits, whenUnreadable: .withheld) { root in
            (root["characteristics"]?.arrayValue ?? []).compactMap { entry in
                guard let aid = entry["aid"]?.numberValue?.uint64Value, let iid = entry["iid"]?.numberValue?.uint64Value,
                      let value = entry["value"], let type = database.characteristic(CharacteristicID(aid: aid, iid: iid))?.type
                else { return nil }
                return (value, type, written)
            }
        }
    }

    /// The same for an `/accessories` response, whose characteristics name their own types.
    /// `known` is the database already read from this very body, if any: when it holds nothing
    /// secret the body is not read again.
    static func withoutSecrets(accessories message: HTTPMessage, known: AccessoryDatabase?, limits: JSONLimits) -> HTTPMessageEvent.BodyWithoutSecrets? {
        guard !message.body.isEmpty else { return nil }
        if let known, !holdsSecretValues(known) { return nil }
        // A broken database is what its user must see, and nothing in it says a key is there.
        return rewrite(message, limits: limits, whenUnreadable: nil) { root in
            (root["accessories"]?.arrayValue ?? []).flatMap { accessory in
                (accessory["services"]?.arrayValue ?? []).flatMap { service in
                    (service["characteristics"]?.arrayValue ?? []).compactMap { characteristic in
                        guard let value = characteristic["value"], let text = characteristic["type"]?.stringValue,
                              let type = HAPUUID(text) ?? UInt32(text, radix: 16).map(HAPUUID.init(appleDefined:))
                        else { return nil }
                        return (value, type, false)
                    }
                }
            }
        }
    }

    /// Zeroes the secrets of every TLV8 value `values` finds in the parsed body.
    private static func rewrite(
        _ message: HTTPMessage, limits: JSONLimits, whenUnreadable: HTTPMessageEvent.BodyWithoutSecrets?,
        values: (JSONValue) -> [(JSONValue, HAPUUID, Bool)]
    ) -> HTTPMessageEvent.BodyWithoutSecrets? {
        var cursor = ByteCursor(message.bodySpan, layer: .json)
        guard let document = try? JSONDocument(parsing: &cursor, limits: limits) else { return whenUnreadable }
        let body = Array(message.body)
        var redacted = body
        for (value, type, written) in values(document.root) {
            guard let text = value.stringValue, let short = type.appleShortValue,
                  let schema = TLV8ValueSchema.characteristic(shortType: short, written: written), schema.holdsSecrets,
                  let bytes = Base64.decode(text)
            else { continue }
            let structure = TLV8ValueDecoder.decode(bytes, as: schema)
            guard !structure.secretRanges.isEmpty else { continue }
            let original = Array(text.utf8)
            let replacement = Array(Base64.encode(structure.withoutSecrets(bytes)).utf8)
            // The value's offset is its opening quote; the text must follow it as it was decoded.
            let start = value.offset + 1
            guard replacement.count == original.count, start + original.count < body.count,
                  body[value.offset] == UInt8(ascii: "\""), Array(body[start ..< start + original.count]) == original
            else { return .withheld }
            redacted.replaceSubrange(start ..< start + original.count, with: replacement)
        }
        return redacted == body ? nil : .redacted(redacted)
    }

    /// Whether any characteristic of `database` has a structure that can hold key material:
    /// only then are its bodies read a second time.
    static func holdsSecretValues(_ database: AccessoryDatabase) -> Bool {
        database.accessories.contains { accessory in
            accessory.services.contains { service in
                service.characteristics.contains { characteristic in
                    guard let short = characteristic.type.appleShortValue else { return false }
                    return TLV8ValueSchema.characteristic(shortType: short, written: true)?.holdsSecrets == true
                        || TLV8ValueSchema.characteristic(shortType: short, written: false)?.holdsSecrets == true
                }
            }
        }
    }
}
