/// A `/pairings` body: HAP Add Pairing, Remove Pairing or List Pairings, M1 (request) and M2
/// (response), sent by an admin controller over a verified session.
public enum PairingsMessage: Sendable, Hashable {
    case addPairingM1(AddPairingM1)
    case addPairingM2
    case removePairingM1(RemovePairingM1)
    case removePairingM2
    case listPairingsM1
    case listPairingsM2(ListPairingsM2)
    /// An accessory's refusal at M2.
    case error(PairingErrorResponse)

    /// HAP: Add Pairing M1 — add a controller, or change its permissions: the same three items
    /// as a List Pairings entry.
    public typealias AddPairingM1 = PairingEntry

    /// HAP: Remove Pairing M1 — remove a controller.
    public struct RemovePairingM1: Sendable, Hashable {
        /// The pairing ID of the controller to remove.
        public var identifier: PairingIdentifier?

        public init(identifier: PairingIdentifier?) {
            self.identifier = identifier
        }
    }

    /// HAP: List Pairings M2 — every controller, entries separated by a Separator item.
    public struct ListPairingsM2: Sendable, Hashable {
        public var pairings: [PairingEntry]

        public init(pairings: [PairingEntry]) {
            self.pairings = pairings
        }
    }

    /// One controller: the one Add Pairing M1 adds, or one in a List Pairings response.
    public struct PairingEntry: Sendable, Hashable {
        /// The controller's pairing ID, exactly as stored (iOS 16 compares it case-sensitively).
        public var identifier: PairingIdentifier?
        /// The controller's 32-byte Ed25519 long-term public key.
        public var publicKey: [UInt8]?
        public var permissions: PairingPermissions?

        public init(identifier: PairingIdentifier?, publicKey: [UInt8]?, permissions: PairingPermissions?) {
            self.identifier = identifier
            self.publicKey = publicKey
            self.permissions = permissions
        }

        /// The entry `fields` holds, matched to `entryRules`.
        init(_ fields: PairingItems, decoder: inout PairingBodyDecoder) {
            self.init(
                identifier: decoder.identifier(fields), publicKey: fields.bytes(.publicKey),
                permissions: decoder.permissions(fields))
        }

        func encode(into writer: inout TLV8Writer) {
            writer.append(identifier)
            writer.append(.publicKey, ifPresent: publicKey)
            writer.append(permissions)
        }
    }

    /// The step this message is.
    public var state: PairingState {
        switch self {
        case .addPairingM1, .removePairingM1, .listPairingsM1: .m1
        case .addPairingM2, .removePairingM2, .listPairingsM2: .m2
        case .error(let response): response.state
        }
    }

    /// The Method of the request this message belongs to; nil for an error.
    public var method: PairingMethod? {
        switch self {
        case .addPairingM1, .addPairingM2: .addPairing
        case .removePairingM1, .removePairingM2: .removePairing
        case .listPairingsM1, .listPairingsM2: .listPairings
        case .error: nil
        }
    }

    /// One controller: what Add Pairing M1 adds and each List Pairings M2 entry lists.
    private static let entryRules: [PairingItemRule] = [
        .required(.identifier, .identifier),
        .required(.publicKey, .ed25519PublicKey),
        .required(.permissions, .integer),
    ]

    /// The items a request for `method` carries besides State; Method alone when the method
    /// is unknown or not one of `/pairings`.
    private static func requestRules(for method: PairingMethod?) -> [PairingItemRule] {
        let methodRule = PairingItemRule.required(.method, .integer)
        return switch method {
        case .addPairing: [methodRule] + entryRules
        case .removePairing: [methodRule, .required(.identifier, .identifier)]
        default: [methodRule]
        }
    }

    /// Decodes a `/pairings` body leniently.
    ///
    /// - Parameters:
    ///   - expectedState: the step the caller expects from context, used when the body has no
    ///     State item.
    ///   - requestMethod: the Method of the request, known from context. A request carries its
    ///     own (this is used only when it is missing); a response does not, and without it an
    ///     M2 that holds no pairings cannot be told apart (Add or Remove).
    public static func decode(
        _ body: TLV8Body, expectedState: PairingState? = nil, requestMethod: PairingMethod? = nil
    ) -> DecodedPairingBody<PairingsMessage> {
        PairingBodyDecoder.decode(body, expectedState: expectedState, steps: 1 ... 2, error: PairingsMessage.error) {
            decoder, state in
            state == .m1 ? request(&decoder, method: requestMethod) : response(&decoder, method: requestMethod)
        }
    }

    private static func request(_ decoder: inout PairingBodyDecoder, method contextMethod: PairingMethod?) -> PairingsMessage? {
        // The request's own Method decides which items belong; `match` notes a malformed one.
        let sentMethod = decoder.body.first(.method).flatMap { $0.value.count == 1 ? PairingMethod(rawValue: $0.value[0]) : nil }
        let items = decoder.match(rules: requestRules(for: sentMethod ?? contextMethod))
        switch decoder.method(items, allowed: [.addPairing, .removePairing, .listPairings]) ?? contextMethod {
        case .addPairing:
            return .addPairingM1(AddPairingM1(items, decoder: &decoder))
        case .removePairing:
            return .removePairingM1(RemovePairingM1(identifier: decoder.identifier(items)))
        case .listPairings:
            return .listPairingsM1
        default:
            return nil
        }
    }

    private static func response(_ decoder: inout PairingBodyDecoder, method: PairingMethod?) -> PairingsMessage? {
        switch method {
        case .listPairings:
            return .listPairingsM2(listPairings(&decoder))
        case .addPairing:
            _ = decoder.match(rules: [])
            return .addPairingM2
        case .removePairing:
            _ = decoder.match(rules: [])
            return .removePairingM2
        case nil where decoder.body.items.contains(where: isListItem):
            return .listPairingsM2(listPairings(&decoder))
        default:
            decoder.note(.unknownRequestMethod, at: decoder.body.offset)
            return nil
        }
    }

    private static func isListItem(_ item: TLV8Item) -> Bool {
        item.type == .separator || entryRules.contains { $0.type == item.type }
    }

    /// HAP: List Pairings M2 — State, then one entry per controller, entries separated by a
    /// Separator item (HAP-python PR #456: iOS 17 misreads a list without them). State alone
    /// is an empty list.
    private static func listPairings(_ decoder: inout PairingBodyDecoder) -> ListPairingsM2 {
        let items = decoder.body.items
        var entries: [ArraySlice<TLV8Item>] = []
        var separators: [TLV8Item] = []
        var entryStart = items.startIndex
        while let separator = items[entryStart...].firstIndex(where: { $0.type == .separator }) {
            entries.append(items[entryStart ..< separator])
            separators.append(items[separator])
            entryStart = separator + 1
        }
        entries.append(items[entryStart...])

        let isEmpty = entries.map { entry in entry.allSatisfy { $0.type == .state } }
        for (index, separator) in separators.enumerated() {
            if isEmpty[index] || isEmpty[index + 1] {
                decoder.note(.unexpectedItem(.separator), at: separator.offset)
            } else if !PairingItemLength.separator.admits(separator.value.count) {
                decoder.note(
                    .wrongLength(.separator, length: separator.value.count, expected: .separator), at: separator.offset)
            }
        }

        var pairings: [PairingEntry] = []
        for (entry, empty) in zip(entries, isEmpty) where !empty {
            let entryOffset = entry.first { $0.type != .state }?.offset
            let fields = decoder.match(entry, rules: entryRules, entryOffset: entryOffset)
            pairings.append(PairingEntry(fields, decoder: &decoder))
        }
        return ListPairingsM2(pairings: pairings)
    }

    /// The body as HomeKitADK lays it out: State first, absent values left out, List Pairings
    /// entries separated by Separator items.
    public func encoded() -> [UInt8] {
        var writer = TLV8Writer()
        writer.append(state)
        switch self {
        case .addPairingM1(let message):
            writer.append(method)
            message.encode(into: &writer)
        case .removePairingM1(let message):
            writer.append(method)
            writer.append(message.identifier)
        case .listPairingsM1:
            writer.append(method)
        case .addPairingM2, .removePairingM2:
            break
        case .listPairingsM2(let message):
            for (index, pairing) in message.pairings.enumerated() {
                if index > 0 { writer.appendSeparator() }
                pairing.encode(into: &writer)
            }
        case .error(let response):
            response.encode(into: &writer)
        }
        return writer.bytes
    }
}
