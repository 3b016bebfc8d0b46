import WireParsing

/// Something in a TLV8 body that a strict reader (HomeKitADK's `HAPTLVReader`) rejects.
///
/// A lenient decode records these and keeps every item it could still read; a strict decode
/// throws the first one as a `DecodeError`.
public struct TLV8Diagnostic: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// The input ended one byte into an item header: the type is known, the length is not.
        /// These are trailing bytes that cannot form an item.
        case incompleteHeader(type: TLV8Type)
        /// A fragment announces more value bytes than the input holds.
        case truncatedValue(type: TLV8Type, declaredLength: Int, availableLength: Int)
        /// A type occurs twice in one list entry (between two separators), not as adjacent
        /// fragments. The lenient decode keeps both items.
        case repeatedType(TLV8Type)
        /// A fragment of the same type follows one shorter than 255 bytes. The lenient decode
        /// joins it to the item anyway, as aiohomekit and HAP-python do.
        case continuationAfterShortFragment(type: TLV8Type, previousLength: Int)
        /// A continuation fragment carries no bytes.
        case emptyContinuation(type: TLV8Type)
        /// The body holds more items than `TLV8Limits.maximumItemCount`; the rest was not read.
        case tooManyItems(limit: Int)
    }

    public var kind: Kind
    /// The absolute offset of the fragment (its type byte) where the problem starts.
    public var offset: Int

    public init(_ kind: Kind, offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    /// How a strict decode classifies the problem: the input ended (`truncated`), the sender
    /// broke a rule (`malformed`) or a configured bound was reached (`limitExceeded`).
    public var code: DecodeError.Code {
        switch kind {
        case .incompleteHeader, .truncatedValue: .truncated
        case .repeatedType, .continuationAfterShortFragment, .emptyContinuation: .malformed
        case .tooManyItems: .limitExceeded
        }
    }

    /// The error a strict decode throws for this problem.
    public var error: DecodeError {
        DecodeError(code, layer: .tlv8, offset: offset, expected: expected)
    }

    public var description: String {
        "\(code) at byte \(offset): \(problem)"
    }

    /// What the item should have been, for `DecodeError.expected`.
    private var expected: String {
        switch kind {
        case .incompleteHeader(let type):
            "the length byte of a \(type) item"
        case .truncatedValue(let type, let declared, let available):
            "\(declared) value bytes of a \(type) item (\(available) remain)"
        case .repeatedType(let type):
            "no second \(type) item before a separator"
        case .continuationAfterShortFragment(let type, let previous):
            "no \(type) fragment after a fragment of \(previous) bytes (only 255-byte fragments continue)"
        case .emptyContinuation(let type):
            "a non-empty \(type) continuation fragment"
        case .tooManyItems(let limit):
            "at most \(limit) items"
        }
    }

    /// The problem in words, without its position.
    var problem: String {
        switch kind {
        case .incompleteHeader(let type):
            "input ends inside the header of a \(type) item"
        case .truncatedValue(let type, let declared, let available):
            "\(type) fragment declares \(declared) bytes, \(available) remain"
        case .repeatedType(let type):
            "\(type) repeated within one list entry"
        case .continuationAfterShortFragment(let type, let previous):
            "\(type) continues after a fragment of \(previous) bytes"
        case .emptyContinuation(let type):
            "empty \(type) continuation fragment"
        case .tooManyItems(let limit):
            "more than \(limit) items"
        }
    }
}
