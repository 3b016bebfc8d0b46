import WireParsing

extension DecodeError.Layer {
    /// TLV8 bodies: the codec and the pairing messages built on it.
    public static let tlv8 = DecodeError.Layer("tlv8")
}

/// The type byte of a TLV8 item.
///
/// Any byte is a valid type on the wire. The named constants are the types of HAP's pairing
/// protocol (HomeKitADK `HAPPairingTLVType`); the codec treats every value alike, and the
/// pairing messages report the ones they do not know.
public struct TLV8Type: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    @inlinable
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    @inlinable
    public init(_ rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The pairing method requested (`PairingMethod`). HAP-NodeJS calls it `REQUEST_TYPE`.
    public static let method = TLV8Type(0x00)
    /// A pairing identifier: UTF-8, a controller UUID or the accessory's device ID.
    public static let identifier = TLV8Type(0x01)
    /// The 16-byte SRP salt.
    public static let salt = TLV8Type(0x02)
    /// An SRP public key (A or B), an X25519 key or an Ed25519 long-term public key.
    public static let publicKey = TLV8Type(0x03)
    /// An SRP proof (M1 or M2). HAP-python and HAP-NodeJS call it `PASSWORD_PROOF`.
    public static let proof = TLV8Type(0x04)
    /// ChaCha20-Poly1305 ciphertext followed by its 16-byte tag.
    public static let encryptedData = TLV8Type(0x05)
    /// The step of the procedure, M1…M6 (`PairingState`). HAP-NodeJS calls it `SEQUENCE_NUM`.
    public static let state = TLV8Type(0x06)
    /// A pairing error code (`PairingErrorCode`), present only on failure.
    public static let error = TLV8Type(0x07)
    /// Seconds to wait before retrying; obsolete since HAP R3.
    public static let retryDelay = TLV8Type(0x08)
    /// The MFi coprocessor's X.509 certificate.
    public static let certificate = TLV8Type(0x09)
    /// An Ed25519 or MFi signature. HAP-python and HAP-NodeJS call this type `PROOF`.
    public static let signature = TLV8Type(0x0A)
    /// A controller's permissions (`PairingPermissions`).
    public static let permissions = TLV8Type(0x0B)
    /// A fragment of a larger body; obsolete since HAP R7.
    public static let fragmentData = TLV8Type(0x0C)
    /// The last fragment of a larger body; obsolete since HAP R7.
    public static let fragmentLast = TLV8Type(0x0D)
    /// The 8-byte Pair Resume session ID (BLE).
    public static let sessionID = TLV8Type(0x0E)
    /// Pairing type flags (`PairingFlags`).
    public static let flags = TLV8Type(0x13)
    /// The zero-length item that delimits list entries, such as the pairings of a List Pairings response.
    public static let separator = TLV8Type(0xFF)

    /// The HAP name (`PublicKey`), or nil for a type HAP's pairing protocol does not define.
    public var name: String? {
        Self.names[Int(rawValue)].map { $0.name }
    }

    /// Whether HAP's pairing protocol defines this type.
    public var isKnown: Bool {
        Self.names[Int(rawValue)] != nil
    }

    /// A stable machine name for reports and filters, like Wireshark's field names:
    /// `publicKey`, or `type0x2a` for an unknown type.
    public var fieldName: String {
        Self.names[Int(rawValue)]?.field ?? "type0x\(Hex.encode(CollectionOfOne(rawValue)))"
    }

    /// The HAP name, or the byte in hex (`0x2a`) for an unknown type.
    public var description: String {
        name ?? "0x\(Hex.encode(CollectionOfOne(rawValue)))"
    }

    /// Names indexed by type byte, so that naming an item in a report is one array access.
    private static let names: [(name: String, field: String)?] = {
        var table = [(name: String, field: String)?](repeating: nil, count: 256)
        let known: [(TLV8Type, String, String)] = [
            (.method, "Method", "method"),
            (.identifier, "Identifier", "identifier"),
            (.salt, "Salt", "salt"),
            (.publicKey, "PublicKey", "publicKey"),
            (.proof, "Proof", "proof"),
            (.encryptedData, "EncryptedData", "encryptedData"),
            (.state, "State", "state"),
            (.error, "Error", "error"),
            (.retryDelay, "RetryDelay", "retryDelay"),
            (.certificate, "Certificate", "certificate"),
            (.signature, "Signature", "signature"),
            (.permissions, "Permissions", "permissions"),
            (.fragmentData, "FragmentData", "fragmentData"),
            (.fragmentLast, "FragmentLast", "fragmentLast"),
            (.sessionID, "SessionID", "sessionID"),
            (.flags, "Flags", "flags"),
            (.separator, "Separator", "separator"),
        ]
        for (type, name, field) in known {
            table[Int(type.rawValue)] = (name, field)
        }
        return table
    }()
}
