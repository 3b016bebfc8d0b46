/// Something in a pairing body that breaks HAP's rules for that message, found by a lenient
/// decode that keeps going. The audit reports these.
public struct PairingDiagnostic: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// A problem in the TLV8 encoding itself.
        case tlv8(TLV8Diagnostic.Kind)
        /// The body has no State item (PROTOCOL §8 #5: some accessories omit it, iOS tolerates
        /// it); the decode used the state the caller expected, if any.
        case missingState(assumed: PairingState?)
        /// The State item holds a value outside M1…M6.
        case invalidState(UInt8)
        /// The State item differs from the state the caller expected from context; the decode
        /// follows the body.
        case stateMismatch(found: PairingState, expected: PairingState)
        /// The procedure has no such step, such as M5 in Pair Verify.
        case stateOutsideProcedure(PairingState)
        /// A type HAP's pairing protocol does not define.
        case unknownType(TLV8Type)
        /// A defined type that this message does not carry.
        case unexpectedItem(TLV8Type)
        /// A required item is absent.
        case missingItem(TLV8Type)
        /// An item's length does not fit its role.
        case wrongLength(TLV8Type, length: Int, expected: PairingItemLength)
        /// A Method that this message does not allow, or one HAP does not define.
        case unexpectedMethod(PairingMethod)
        /// An Error code HAP does not define.
        case undefinedErrorCode(PairingErrorCode)
        /// Permissions with bits other than Admin.
        case undefinedPermissions(PairingPermissions)
        /// An Identifier that is not valid UTF-8.
        case identifierNotUTF8
        /// A `/pairings` response that cannot be typed without the Method of its request.
        case unknownRequestMethod
    }

    public var kind: Kind
    /// The absolute offset of the item at fault, or of the body (or list entry) when an item is missing.
    public var offset: Int

    public init(_ kind: Kind, offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    public var description: String {
        "at byte \(offset): \(problem)"
    }

    private var problem: String {
        switch kind {
        case .tlv8(let kind): TLV8Diagnostic(kind, offset: offset).problem
        case .missingState(let assumed?): "no State item; assumed \(assumed)"
        case .missingState(nil): "no State item"
        case .invalidState(let value): "State \(value) is not M1…M6"
        case .stateMismatch(let found, let expected): "State \(found) where \(expected) was expected"
        case .stateOutsideProcedure(let state): "State \(state) is not a step of this procedure"
        case .unknownType(let type): "unknown item type \(type)"
        case .unexpectedItem(let type): "unexpected \(type) item"
        case .missingItem(let type): "missing \(type) item"
        case .wrongLength(let type, let length, let expected): "\(type) is \(length) bytes, expected \(expected)"
        case .unexpectedMethod(let method): "unexpected Method \(method)"
        case .undefinedErrorCode(let code): "Error code \(code.rawValue) is not defined"
        case .undefinedPermissions(let permissions): "Permissions \(permissions) has undefined bits"
        case .identifierNotUTF8: "Identifier is not UTF-8"
        case .unknownRequestMethod: "response cannot be typed without its request's Method"
        }
    }
}
