import HAPCatalog
import HAPEvents
import HAPJSON
import TLV8

/// Reads the TLV8 value of a characteristic whose structure is known (`TLV8ValueSchema`), for
/// every transport: the structure the activity carries, and the value as it may be shown.
package enum CharacteristicValueStructure {
    /// The structure of `value`, when `type` names a characteristic with a known schema and the
    /// value is bytes (not none: an empty value is what an accessory holds before any write); `shown` is `value` with its key material zeroed unless `revealSecrets`
    /// (`--show-keys`), so that no secret enters the event stream otherwise.
    package static func read(
        _ value: consuming InterpretedValue?, type: HAPUUID?, kind: CharacteristicActivity.Kind, revealSecrets: Bool
    ) -> (shown: InterpretedValue?, structure: TLV8StructuredValue?) {
        // The value is handed on, not copied, for the values that have no structure (nearly all):
        // a copy and its destruction cost ~250 instructions of every characteristic activity.
        guard case .bytes(let bytes)? = value?.value, !bytes.isEmpty, let short = type?.appleShortValue,
              let schema = TLV8ValueSchema.characteristic(shortType: short, written: kind == .write),
              var value
        else { return (value, nil) }
        let structure = TLV8ValueDecoder.decode(bytes, as: schema, revealSecrets: revealSecrets)
        if structure.secretsWithheld { value.value = .bytes(structure.withoutSecrets(bytes)) }
        return (value, structure)
    }
}
