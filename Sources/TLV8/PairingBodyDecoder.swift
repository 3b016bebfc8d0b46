/// What a pairing message expects of one item type.
struct PairingItemRule {
    let type: TLV8Type
    let length: PairingItemLength
    let isRequired: Bool

    static func required(_ type: TLV8Type, _ length: PairingItemLength) -> PairingItemRule {
        PairingItemRule(type: type, length: length, isRequired: true)
    }

    static func optional(_ type: TLV8Type, _ length: PairingItemLength) -> PairingItemRule {
        PairingItemRule(type: type, length: length, isRequired: false)
    }
}

/// The items of one message, or one list entry, matched to the rules of that message.
///
/// A message names at most a handful of types, so a linear search beats hashing here.
struct PairingItems {
    /// The first item of each type a rule names, and whether its length fits the role.
    private var matched: [(item: TLV8Item, fits: Bool)] = []

    /// The item of `type`, whatever its length.
    subscript(type: TLV8Type) -> TLV8Item? {
        matched.first { $0.item.type == type }?.item
    }

    /// The value of `type`, whatever its length: the audit wants to see a 31-byte key too.
    func bytes(_ type: TLV8Type) -> [UInt8]? {
        self[type]?.value
    }

    /// The value of `type` as a little-endian integer, when its length fits the role.
    func integer(_ type: TLV8Type) -> UInt64? {
        guard let match = matched.first(where: { $0.item.type == type }), match.fits else { return nil }
        return match.item.littleEndianInteger()
    }

    fileprivate mutating func record(_ item: TLV8Item, fits: Bool) {
        matched.append((item, fits))
    }
}

/// Decodes one pairing body leniently: the state, the items each message expects, and every
/// departure from HAP's rules as a `PairingDiagnostic`.
struct PairingBodyDecoder {
    let body: TLV8Body
    private(set) var diagnostics: [PairingDiagnostic]
    /// The State item the decode used, left out of every message's items.
    private var stateItemOffset: Int?

    init(_ body: TLV8Body) {
        self.body = body
        self.diagnostics = body.diagnostics.map { PairingDiagnostic(.tlv8($0.kind), offset: $0.offset) }
    }

    /// Decodes a body of the procedure whose steps are `steps`, as every pairing message does:
    /// its state (see `resolveState`), then the error form of a response, else the message
    /// `step` reads for that state.
    static func decode<Message>(
        _ body: TLV8Body, expectedState: PairingState?, steps: ClosedRange<PairingState.RawValue>,
        error: (PairingErrorResponse) -> Message, step: (inout PairingBodyDecoder, PairingState) -> Message?
    ) -> DecodedPairingBody<Message> {
        var decoder = PairingBodyDecoder(body)
        guard let state = decoder.resolveState(expected: expectedState, steps: steps) else {
            return decoder.finish(nil, state: nil)
        }
        if let response = decoder.errorResponse(state: state) {
            return decoder.finish(error(response), state: state)
        }
        let message = step(&decoder, state)
        return decoder.finish(message, state: state)
    }

    mutating func note(_ kind: PairingDiagnostic.Kind, at offset: Int) {
        diagnostics.append(PairingDiagnostic(kind, offset: offset))
    }

    /// The state of the body: its State item, else the one the caller expects from context
    /// (PROTOCOL §8 #5), noting an absent, unreadable or unexpected State. Nil when neither
    /// says, or the state is not a step of the procedure.
    mutating func resolveState(expected: PairingState?, steps: ClosedRange<PairingState.RawValue>) -> PairingState? {
        var state = expected
        if let item = body.first(.state) {
            stateItemOffset = item.offset
            if !PairingItemLength.integer.admits(item.value.count) {
                note(.wrongLength(.state, length: item.value.count, expected: .integer), at: item.offset)
            } else if let found = PairingState(rawValue: item.value[0]) {
                if let expected, expected != found {
                    note(.stateMismatch(found: found, expected: expected), at: item.offset)
                }
                state = found
            } else {
                note(.invalidState(item.value[0]), at: item.offset)
            }
        } else {
            note(.missingState(assumed: expected), at: body.offset)
        }
        if let state, !steps.contains(state.rawValue) {
            note(.stateOutsideProcedure(state), at: stateItemOffset ?? body.offset)
            return nil
        }
        return state
    }

    /// The error form of a response (HAP: State and Error, RetryDelay with Backoff), when the
    /// body carries an Error item; nil otherwise.
    mutating func errorResponse(state: PairingState) -> PairingErrorResponse? {
        guard state.isResponse, body.first(.error) != nil else { return nil }
        let items = match(rules: [
            .required(.error, .integer),
            .optional(.retryDelay, .retryDelay),
        ])
        return PairingErrorResponse(
            state: state, error: errorCode(items), retryDelay: items.integer(.retryDelay))
    }

    /// Matches the whole body to `rules` (see `match(_:rules:entryOffset:)`).
    mutating func match(rules: [PairingItemRule]) -> PairingItems {
        match(body.items[...], rules: rules)
    }

    /// Matches `items` to `rules`: checks each item's length against its role and notes items
    /// the message does not carry and required items that are absent. The State item is
    /// skipped; a repeated type keeps its first item (the TLV8 decode has noted the repeat).
    mutating func match(_ items: ArraySlice<TLV8Item>, rules: [PairingItemRule], entryOffset: Int? = nil) -> PairingItems {
        var matched = PairingItems()
        for item in items where item.offset != stateItemOffset {
            guard let rule = rules.first(where: { $0.type == item.type }) else {
                note(item.type.isKnown ? .unexpectedItem(item.type) : .unknownType(item.type), at: item.offset)
                continue
            }
            guard matched[item.type] == nil else { continue }
            let fits = rule.length.admits(item.value.count)
            if !fits {
                note(.wrongLength(item.type, length: item.value.count, expected: rule.length), at: item.offset)
            }
            matched.record(item, fits: fits)
        }
        for rule in rules where rule.isRequired && matched[rule.type] == nil {
            note(.missingItem(rule.type), at: entryOffset ?? body.offset)
        }
        return matched
    }

    /// The Method, noting one outside `allowed`.
    mutating func method(_ items: PairingItems, allowed: [PairingMethod]) -> PairingMethod? {
        guard let value = items.integer(.method) else { return nil }
        let method = PairingMethod(rawValue: UInt8(truncatingIfNeeded: value))
        if !allowed.contains(method), let item = items[.method] {
            note(.unexpectedMethod(method), at: item.offset)
        }
        return method
    }

    /// The Error code, noting one HAP does not define.
    mutating func errorCode(_ items: PairingItems) -> PairingErrorCode? {
        guard let value = items.integer(.error) else { return nil }
        let code = PairingErrorCode(rawValue: UInt8(truncatingIfNeeded: value))
        if !code.isDefined, let item = items[.error] {
            note(.undefinedErrorCode(code), at: item.offset)
        }
        return code
    }

    /// The Permissions, noting bits other than Admin.
    mutating func permissions(_ items: PairingItems) -> PairingPermissions? {
        guard let value = items.integer(.permissions) else { return nil }
        let permissions = PairingPermissions(rawValue: UInt8(truncatingIfNeeded: value))
        if permissions.undefinedBits != 0, let item = items[.permissions] {
            note(.undefinedPermissions(permissions), at: item.offset)
        }
        return permissions
    }

    /// The Identifier, noting one that is not UTF-8.
    mutating func identifier(_ items: PairingItems) -> PairingIdentifier? {
        guard let item = items[.identifier] else { return nil }
        let identifier = PairingIdentifier(bytes: item.value)
        if identifier.string == nil {
            note(.identifierNotUTF8, at: item.offset)
        }
        return identifier
    }

    /// The Flags; undefined bits are kept, as HomeKitADK ignores them.
    func flags(_ items: PairingItems) -> PairingFlags? {
        items.integer(.flags).map { PairingFlags(rawValue: UInt32(truncatingIfNeeded: $0)) }
    }

    /// The result, the message's own diagnostics in wire order after the body's.
    func finish<Content>(_ content: Content?, state: PairingState?) -> DecodedPairingBody<Content> {
        let structural = body.diagnostics.count
        let message = diagnostics[structural...].enumerated()
            .sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
            .map(\.element)
        return DecodedPairingBody(
            content: content, state: state, diagnostics: Array(diagnostics[..<structural]) + message, body: body)
    }
}
