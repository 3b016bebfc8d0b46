import Bluetooth
import HAPCrypto
import HAPEvents
import Packets
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
        /// HAP over CoAP: the key of the accessory's event messages.
        case eventReadKey = "EVENT_READ_KEY"
        case pairSetupSessionKey = "PAIR_SETUP_SESSION_KEY"
        case accessoryLTPK = "ACCESSORY_LTPK"
        case controllerLTPK = "CONTROLLER_LTPK"
        /// HAP over Bluetooth LE: the key of encrypted notification advertisements, by device id.
        case broadcastKey = "BROADCAST_KEY"
        /// The transport endpoints of the session whose secrets carry the same id.
        case sessionEndpoints = "SESSION_ENDPOINTS"

        /// Whether the id field is text (a pairing or device identifier) rather than hex.
        var identifiesByText: Bool { self == .accessoryLTPK || self == .controllerLTPK || self == .broadcastKey }

        var identifierByteCount: Int? { identifiesByText ? nil : 32 }

        var secretByteCount: Int { self == .pairSetupSessionKey ? 64 : 32 }

        /// The fields after the label.
        var fieldCount: Int { self == .sessionEndpoints ? 3 : 2 }
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

    /// Where a session logged by `SESSION_ENDPOINTS` ran: the two peers as the logging process saw
    /// them.
    public struct SessionEndpoints: Sendable, Hashable {
        /// The id of the session's secret lines: the controller's pair-verify public key.
        public let id: [UInt8]
        public let controller: PeerAddress
        public let accessory: PeerAddress
    }

    private var secrets: [Label: [[UInt8]: SecretBytes]] = [:]
    private var publicKeys: [Label: [String: [UInt8]]] = [:]
    private var sessionEndpointsByID: [[UInt8]: SessionEndpoints] = [:]
    /// Every broadcast key in the order logged: a key generated again is another line with the
    /// same device id, and an encrypted notification may be sealed under any of them.
    public private(set) var broadcastKeys: [BroadcastKey] = []
    /// Lines with unknown labels, and a last line cut off mid-way, kept as warnings.
    public private(set) var warnings: [Problem] = []

    public init() {}

    /// Parses one key log. An unknown label is a warning, and so is a last line that ends the file
    /// cut off (a writer killed mid-line); any other bad line throws, naming the line.
    public init(parsing text: String, source: String) throws(Problem) {
        try add(parsing: text, source: source)
    }

    public mutating func add(parsing text: String, source: String) throws(Problem) {
        let lines = Self.lines(of: text)
        for (index, line) in lines.enumerated() {
            let isUnterminatedLastLine = index == lines.count - 1 && !line.isEmpty
            do {
                try add(line: line, source: source, lineNumber: index + 1)
            } catch let problem where isUnterminatedLastLine && problem.isTruncation {
                warnings.append(Problem(severity: .warning, source: source, line: problem.line,
                                        message: "the last line ends the file cut off (\(problem.message)); it is ignored"))
            } catch {
                throw error.problem
            }
        }
    }

    /// The lines of `text`, ended by LF, CR LF or CR, read as bytes: a key log is ASCII, and
    /// splitting by Character would cost a grapheme-breaking step per byte.
    private static func lines(of text: String) -> [Substring] {
        let utf8 = text.utf8
        var lines: [Substring] = []
        var start = utf8.startIndex
        var index = start
        while index != utf8.endIndex {
            let byte = utf8[index]
            guard byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") else {
                index = utf8.index(after: index)
                continue
            }
            lines.append(Substring(utf8[start..<index]))
            index = utf8.index(after: index)
            if byte == UInt8(ascii: "\r"), index != utf8.endIndex, utf8[index] == UInt8(ascii: "\n") { index = utf8.index(after: index) }
            start = index
        }
        lines.append(Substring(utf8[start...]))
        return lines
    }

    /// Why a line was refused, and whether what it lacks could be what a writer had not written
    /// yet: a field missing, or a hex field shorter than its length.
    private struct LineFailure: Error {
        let problem: Problem
        let isTruncation: Bool
        var line: Int { problem.line }
        var message: String { problem.message }
    }

    private mutating func add(line: Substring, source: String, lineNumber: Int) throws(LineFailure) {
        let fields = line.utf8.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }).map(Substring.init)
        guard let first = fields.first, !first.hasPrefix("#") else { return }
        func failure(_ message: String, truncation: Bool = false) -> LineFailure {
            LineFailure(problem: Problem(severity: .error, source: source, line: lineNumber, message: message), isTruncation: truncation)
        }
        guard let label = Label(rawValue: String(first)) else {
            // A label cut off mid-way reads as an unknown one: a warning either way.
            warnings.append(Problem(severity: .warning, source: source, line: lineNumber, message: "unknown label '\(first)', line ignored"))
            return
        }
        guard fields.count == label.fieldCount + 1 else {
            let what = label == .sessionEndpoints ? "three fields after the label (id, controller endpoint and accessory endpoint)"
                : "two fields after the label (id and secret)"
            throw failure("\(label.rawValue) needs \(what), found \(fields.count - 1)",
                          truncation: fields.count < label.fieldCount + 1)
        }
        if label == .sessionEndpoints {
            guard let id = Hex.decode(fields[1]), id.count == 32 else { throw failure("SESSION_ENDPOINTS: the id field is not 32 bytes of hex") }
            guard let controller = Self.peerAddress(fields[2]) else {
                throw failure("SESSION_ENDPOINTS: '\(fields[2])' is not an endpoint (a.b.c.d:port, [ipv6]:port or a Bluetooth address)")
            }
            guard let accessory = Self.peerAddress(fields[3]) else {
                throw failure("SESSION_ENDPOINTS: '\(fields[3])' is not an endpoint (a.b.c.d:port, [ipv6]:port or a Bluetooth address)",
                              truncation: Self.couldBeCutOffEndpoint(fields[3]))
            }
            sessionEndpointsByID[id] = SessionEndpoints(id: id, controller: controller, accessory: accessory)
            return
        }
        guard let value = Hex.decode(fields[2]) else {
            // An odd number of hex digits is a hex value cut in the middle of a byte.
            let isHexPrefix = fields[2].allSatisfy(\.isHexDigit)
            throw failure("\(label.rawValue): the last field is not hex", truncation: isHexPrefix)
        }
        guard value.count == label.secretByteCount else {
            throw failure("\(label.rawValue): the secret field should be \(label.secretByteCount) bytes, found \(value.count)",
                          truncation: value.count < label.secretByteCount)
        }
        if label == .broadcastKey {
            addBroadcastKey(BroadcastKey(deviceID: String(fields[1]), key: SecretBytes(value)))
            return
        }
        if label.identifiesByText {
            publicKeys[label, default: [:]][String(fields[1])] = value
            return
        }
        guard let identifier = Hex.decode(fields[1]) else {
            throw failure("\(label.rawValue): the id field is not hex")
        }
        if let expected = label.identifierByteCount, identifier.count != expected {
            throw failure("\(label.rawValue): the id field should be \(expected) bytes, found \(identifier.count)")
        }
        secrets[label, default: [:]][identifier] = SecretBytes(value)
    }

    /// `10.0.0.2:51826`, `[fd77::2]:5683`, `C0:FF:EE:00:00:01` or `C0:FF:EE:00:00:01/random`.
    static func peerAddress(_ text: some StringProtocol) -> PeerAddress? {
        let text = String(text)
        if let bluetooth = bluetoothAddress(text) { return .bluetooth(bluetooth) }
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { return nil }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard let address = IPAddress(String(host)), let port = UInt16(portText) else { return nil }
        return .ip(Endpoint(address: address, port: port))
    }

    private static func bluetoothAddress(_ text: String) -> BluetoothAddress? {
        let address = text.hasSuffix("/random") ? String(text.dropLast("/random".count)) : text
        let bytes = address.split(separator: ":", omittingEmptySubsequences: false)
        guard bytes.count == 6, bytes.allSatisfy({ $0.count == 2 }) else { return nil }
        let values = bytes.compactMap { UInt8($0, radix: 16) }
        guard values.count == 6 else { return nil }
        return BluetoothAddress(wireBytes: values.reversed())
    }

    /// Whether `text` could be the start of an endpoint a writer had not finished.
    private static func couldBeCutOffEndpoint(_ text: Substring) -> Bool {
        text.allSatisfy { $0.isHexDigit || ".:[]/".contains($0) }
    }

    /// A `BROADCAST_KEY` line: an accessory's key of encrypted notification advertisements.
    public struct BroadcastKey: Sendable, Equatable {
        public let deviceID: String
        public let key: SecretBytes
    }

    private mutating func addBroadcastKey(_ key: BroadcastKey) {
        if !broadcastKeys.contains(key) { broadcastKeys.append(key) }
    }

    public mutating func merge(_ other: KeyLog) {
        for key in other.broadcastKeys { addBroadcastKey(key) }
        for (label, entries) in other.secrets { secrets[label, default: [:]].merge(entries) { _, new in new } }
        for (label, entries) in other.publicKeys { publicKeys[label, default: [:]].merge(entries) { _, new in new } }
        sessionEndpointsByID.merge(other.sessionEndpointsByID) { _, new in new }
        warnings += other.warnings
    }

    public var isEmpty: Bool { secrets.isEmpty && publicKeys.isEmpty && sessionEndpointsByID.isEmpty && broadcastKeys.isEmpty }

    /// How many entries of each label were loaded, for the summary.
    public var counts: [Label: Int] {
        var counts: [Label: Int] = [:]
        for (label, entries) in secrets { counts[label] = entries.count }
        for (label, entries) in publicKeys { counts[label] = entries.count }
        if !sessionEndpointsByID.isEmpty { counts[.sessionEndpoints] = sessionEndpointsByID.count }
        if !broadcastKeys.isEmpty { counts[.broadcastKey] = broadcastKeys.count }
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

    /// The sessions the key log names by their endpoints.
    public var sessionEndpoints: [SessionEndpoints] {
        sessionEndpointsByID.values.sorted { $0.id.lexicographicallyPrecedes($1.id) }
    }

    /// The ids of sessions the key log has keys for (the controller's pair-verify public key of
    /// each): the candidates for a session whose pair-verify is not in the capture.
    public var sessionIDs: [[UInt8]] {
        let labels: [Label] = [.pairVerifySharedSecret, .controlWriteKey, .controlReadKey]
        return Set(labels.flatMap { secrets[$0].map { Array($0.keys) } ?? [] }).sorted { $0.lexicographicallyPrecedes($1) }
    }
}

extension String {
    /// Pairing identifiers are compared without regard to case: iOS upper-cases them, aiohomekit
    /// lower-cases them (HAP fact sheet §1.2, §8 #13).
    func caseInsensitiveEquals(_ other: String) -> Bool {
        lowercased() == other.lowercased()
    }
}
