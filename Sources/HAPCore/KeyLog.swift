import HAPCrypto
import WireParsing

/// Secrets exported by a HAP endpoint, read from key-log files (docs/keylog.md).
///
/// Lookups are keyed by what the capture shows: a controller's ephemeral public key from
/// pair-verify M1, an accessory's from M2, the start of the SRP public key A from pair-setup M3,
/// or a pairing identifier.
public struct KeyLog: Sendable {
    /// The labels this version understands.
    public enum Label: String, CaseIterable, Sendable {
        case pairVerifySharedSecret = "PAIR_VERIFY_SHARED_SECRET"
        case controllerEphemeralSecret = "CONTROLLER_EPHEMERAL_SECRET"
        case accessoryEphemeralSecret = "ACCESSORY_EPHEMERAL_SECRET"
        case controlWriteKey = "CONTROL_WRITE_KEY"
        case controlReadKey = "CONTROL_READ_KEY"
        case pairSetupSessionKey = "PAIR_SETUP_SESSION_KEY"
        case accessoryLTPK = "ACCESSORY_LTPK"
        case controllerLTPK = "CONTROLLER_LTPK"

        /// Whether the id field is a pairing identifier (text) rather than hex.
        var identifiesByPairingID: Bool { self == .accessoryLTPK || self == .controllerLTPK }

        var identifierByteCount: Int? { identifiesByPairingID ? nil : 32 }

        var secretByteCount: Int { self == .pairSetupSessionKey ? 64 : 32 }

        /// Public keys are not secrets and may be shown.
        var isSecret: Bool { !identifiesByPairingID }
    }

    /// A line that could not be used, named by file and line.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Severity: Sendable { case warning, error }
        public let severity: Severity
        public let source: String
        public let line: Int
        public let message: String

        public var description: String { "\(source):\(line): \(message)" }
    }

    private var secrets: [Label: [[UInt8]: SecretBytes]] = [:]
    private var publicKeys: [Label: [String: [UInt8]]] = [:]
    /// Lines with unknown labels, kept as warnings.
    public private(set) var warnings: [Problem] = []

    public init() {}

    /// Parses one key log. An unknown label is a warning; any other bad line throws, naming the line.
    public init(parsing text: String, source: String) throws(Problem) {
        try add(parsing: text, source: source)
    }

    public mutating func add(parsing text: String, source: String) throws(Problem) {
        var lineNumber = 0
        // `isNewline` also matches "\r\n", which Swift treats as one Character.
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let first = fields.first, !first.hasPrefix("#") else { continue }
            func problem(_ message: String) -> Problem {
                Problem(severity: .error, source: source, line: lineNumber, message: message)
            }
            guard let label = Label(rawValue: String(first)) else {
                warnings.append(Problem(severity: .warning, source: source, line: lineNumber,
                                        message: "unknown label '\(first)', line ignored"))
                continue
            }
            guard fields.count == 3 else {
                throw problem("\(label.rawValue) needs two fields after the label (id and secret), found \(fields.count - 1)")
            }
            guard let value = Hex.decode(fields[2]) else {
                throw problem("\(label.rawValue): the last field is not hex")
            }
            guard value.count == label.secretByteCount else {
                throw problem("\(label.rawValue): the secret field should be \(label.secretByteCount) bytes, found \(value.count)")
            }
            if label.identifiesByPairingID {
                publicKeys[label, default: [:]][String(fields[1])] = value
                continue
            }
            guard let identifier = Hex.decode(fields[1]) else {
                throw problem("\(label.rawValue): the id field is not hex")
            }
            if let expected = label.identifierByteCount, identifier.count != expected {
                throw problem("\(label.rawValue): the id field should be \(expected) bytes, found \(identifier.count)")
            }
            secrets[label, default: [:]][identifier] = SecretBytes(value)
        }
    }

    public mutating func merge(_ other: KeyLog) {
        for (label, entries) in other.secrets { secrets[label, default: [:]].merge(entries) { _, new in new } }
        for (label, entries) in other.publicKeys { publicKeys[label, default: [:]].merge(entries) { _, new in new } }
        warnings += other.warnings
    }

    public var isEmpty: Bool { secrets.isEmpty && publicKeys.isEmpty }

    /// How many entries of each label were loaded, for the summary.
    public var counts: [Label: Int] {
        var counts: [Label: Int] = [:]
        for (label, entries) in secrets { counts[label] = entries.count }
        for (label, entries) in publicKeys { counts[label] = entries.count }
        return counts
    }

    public func secret(_ label: Label, for identifier: [UInt8]) -> SecretBytes? {
        secrets[label]?[identifier]
    }

    /// The SRP session key K for the pair-setup whose M3 carried `controllerPublicKey` as A.
    public func pairSetupSessionKey(forControllerPublicKey controllerPublicKey: [UInt8]) -> SecretBytes? {
        secrets[.pairSetupSessionKey]?[Array(controllerPublicKey.prefix(32))]
    }

    public func accessoryLongTermPublicKey(_ pairingID: String) -> [UInt8]? {
        publicKeys[.accessoryLTPK]?[pairingID] ?? publicKeys[.accessoryLTPK]?.first { $0.key.caseInsensitiveEquals(pairingID) }?.value
    }

    public func controllerLongTermPublicKey(_ pairingID: String) -> [UInt8]? {
        publicKeys[.controllerLTPK]?[pairingID] ?? publicKeys[.controllerLTPK]?.first { $0.key.caseInsensitiveEquals(pairingID) }?.value
    }
}

extension String {
    /// Pairing identifiers are compared without regard to case: iOS upper-cases them, aiohomekit
    /// lower-cases them (HAP fact sheet §1.2, §8 #13).
    func caseInsensitiveEquals(_ other: String) -> Bool {
        lowercased() == other.lowercased()
    }
}
