/// The one error type every wire parser throws.
///
/// It names the layer that failed, a small code, the absolute byte offset in the input the
/// parser was given, and what the parser expected to find there. Two errors are equal when
/// their layer and code are equal, so tests can match on the kind of failure without
/// depending on the wording of `expected`.
public struct DecodeError: Error, Sendable, CustomStringConvertible {
    /// The protocol layer whose parser failed. Each module declares its own layers.
    ///
    /// Named by a literal, so that the value is trivially copied: every `ByteCursor` carries
    /// one, and as a `String` each cursor made and dropped cost a retain, a release and an
    /// outlined destroy (51 k of them for the packet headers of hapbench's 4 MB capture).
    public struct Layer: Hashable, Sendable, CustomStringConvertible {
        private let name: StaticString
        public init(_ name: StaticString) { self.name = name }
        /// The layer's name, as errors print it.
        public var rawValue: String { name.description }
        public var description: String { rawValue }

        public static func == (lhs: Layer, rhs: Layer) -> Bool {
            lhs.name.withUTF8Buffer { left in rhs.name.withUTF8Buffer { right in left.elementsEqual(right) } }
        }

        public func hash(into hasher: inout Hasher) {
            name.withUTF8Buffer { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }

    /// What kind of failure this is.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The input ended before the structure did: a snap length, the end of a capture, a
        /// short message. The sender may have done nothing wrong.
        public static let truncated = Code(rawValue: "truncated")
        /// The sender broke a rule of the protocol.
        public static let malformed = Code(rawValue: "malformed")
        /// A configured bound (size, depth, count) was reached; the input may be legal.
        public static let limitExceeded = Code(rawValue: "limit exceeded")
        /// Legal input that this parser does not handle.
        public static let unsupported = Code(rawValue: "unsupported")

        public var description: String { rawValue }
    }

    public var layer: Layer
    public var code: Code
    /// Absolute byte offset, in the input the parser was handed, of the first byte that did
    /// not fit.
    public var offset: Int
    /// What the parser expected, in words a user can act on.
    public var expected: String
    /// For `limitExceeded`: the bound that was reached, so the caller can name it.
    public var limit: LimitName?

    public init(_ code: Code, layer: Layer, offset: Int, expected: String, limit: LimitName? = nil) {
        self.layer = layer
        self.code = code
        self.offset = offset
        self.expected = expected
        self.limit = limit
    }

    public var description: String {
        "\(layer): \(code) at byte \(offset): expected \(expected)"
    }
}

extension DecodeError: Equatable {
    public static func == (lhs: DecodeError, rhs: DecodeError) -> Bool {
        lhs.layer == rhs.layer && lhs.code == rhs.code
    }
}

extension DecodeError: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(layer)
        hasher.combine(code)
    }
}
