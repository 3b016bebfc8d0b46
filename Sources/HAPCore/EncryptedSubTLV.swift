import HAPCrypto
import HAPEvents
import TLV8
import WireParsing

/// Opening the `EncryptedData` item of pair-setup M5/M6 and pair-verify M2/M3 and decoding the
/// sub-TLV inside.
enum EncryptedSubTLV {
    enum Opening {
        case opened(PairingSubTLV)
        /// It did not open: the check that says so.
        case refused(PairingCheck)
    }

    /// - Parameter keyName: how a failure names the key, e.g. "the logged shared secret".
    static func open(
        _ encrypted: [UInt8], of step: PairingMessage, state: PairingState, key: ChaCha20Poly1305.Key,
        context: PairingSubTLV.Context, keyName: String
    ) -> Opening {
        let plaintext: [UInt8]
        do {
            plaintext = try PairingEncryptedData.open(encrypted.span.bytes, of: step, key: key)
        } catch {
            return .refused(PairingCheck(.subTLVDecryption(state), .failed, detail: "\(step) does not decrypt with \(keyName)"))
        }
        var cursor = ByteCursor(plaintext.span.bytes, layer: .tlv8)
        // A sub-TLV has no State to be wrong about, so decoding always yields one (perhaps empty).
        let decoded = PairingSubTLV.decode(TLV8Body(parsingLeniently: &cursor), for: context).content
        return .opened(decoded ?? PairingSubTLV())
    }
}
