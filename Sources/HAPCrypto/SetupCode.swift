/// A HAP setup code, `XXX-XX-XXX`: eight digits with dashes, used as the SRP password
/// exactly as written (PROTOCOL §2.2).
public struct SetupCode: Sendable, Hashable, CustomStringConvertible {
    /// The code as written, dashes included.
    public let text: String

    /// Reads a code in the `XXX-XX-XXX` form. A code HAP forbids is still a code: see
    /// `forbiddenReason`.
    ///
    /// - Throws: `CryptoError.invalidFormat` for anything else.
    public init(_ text: some StringProtocol) throws(CryptoError) {
        let characters = Array(text.utf8)
        let dashPositions = [3, 6]
        let isWellFormed = characters.count == 10 && characters.indices.allSatisfy { index in
            dashPositions.contains(index)
                ? characters[index] == UInt8(ascii: "-")
                : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(characters[index])
        }
        guard isWellFormed else {
            throw CryptoError(.invalidFormat, "\"\(text)\" is not a HAP setup code of the form XXX-XX-XXX")
        }
        self.text = String(text)
    }

    /// The eight digits without dashes.
    public var digits: String { text.filter { $0 != "-" } }

    /// Why HAP forbids this code, or nil when it is allowed.
    public var forbiddenReason: ForbiddenReason? {
        let digits = Array(digits.utf8)
        if digits.allSatisfy({ $0 == digits[0] }) { return .allDigitsEqual }
        if text == "123-45-678" { return .ascendingSequence }
        if text == "876-54-321" { return .descendingSequence }
        return nil
    }

    /// Codes HAP forbids because they are trivially guessed (ADK `HAPAccessorySetup.c`).
    public enum ForbiddenReason: Sendable, Hashable, CustomStringConvertible {
        /// `000-00-000`, `111-11-111`, … `999-99-999`.
        case allDigitsEqual
        /// `123-45-678`.
        case ascendingSequence
        /// `876-54-321`.
        case descendingSequence

        public var description: String {
            switch self {
            case .allDigitsEqual: "all digits are equal"
            case .ascendingSequence: "it is the sequence 123-45-678"
            case .descendingSequence: "it is the sequence 876-54-321"
            }
        }
    }

    public var description: String { text }
}
