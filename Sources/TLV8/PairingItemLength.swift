/// The length a pairing item must have in its role (an X25519 key is 32 bytes, a salt 16).
public enum PairingItemLength: Sendable, Hashable, CustomStringConvertible {
    case exactly(Int)
    case within(ClosedRange<Int>)
    case atLeast(Int)

    public func admits(_ length: Int) -> Bool {
        switch self {
        case .exactly(let required): length == required
        case .within(let range): range.contains(length)
        case .atLeast(let minimum): length >= minimum
        }
    }

    public var description: String {
        switch self {
        case .exactly(let required): required == 1 ? "1 byte" : "\(required) bytes"
        case .within(let range): "\(range.lowerBound)–\(range.upperBound) bytes"
        case .atLeast(let minimum): "at least \(minimum) bytes"
        }
    }

    // HAP: pairing TLV lengths (PROTOCOL §1.2), as HomeKitADK checks them.
    static let integer = PairingItemLength.exactly(1)
    /// Flags: up to 32 bits, minimal little-endian. HomeKitADK leaves Flags out when no flag
    /// is set (it would read an empty item as 0).
    static let flags = PairingItemLength.within(1 ... 4)
    static let retryDelay = PairingItemLength.within(1 ... 8)
    /// SRP A or B: up to the 3072-bit group size; senders may strip leading zero bytes.
    static let srpPublicKey = PairingItemLength.within(1 ... 384)
    static let salt = PairingItemLength.exactly(16)
    /// SRP proofs are SHA-512 digests.
    static let srpProof = PairingItemLength.exactly(64)
    static let x25519PublicKey = PairingItemLength.exactly(32)
    static let ed25519PublicKey = PairingItemLength.exactly(32)
    static let ed25519Signature = PairingItemLength.exactly(64)
    /// Ciphertext and its 16-byte Poly1305 tag.
    static let encryptedData = PairingItemLength.atLeast(16)
    /// Pair Resume M1 carries only the tag.
    static let pairResumeEncryptedData = PairingItemLength.exactly(16)
    /// HomeKitADK stores pairing identifiers of at most 36 bytes (a UUID string).
    static let identifier = PairingItemLength.within(1 ... 36)
    /// MFi signatures and certificates depend on the coprocessor; only emptiness is wrong.
    static let mfiData = PairingItemLength.atLeast(1)
    static let sessionID = PairingItemLength.exactly(8)
    static let separator = PairingItemLength.exactly(0)
}
