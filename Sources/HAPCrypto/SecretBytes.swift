import CSodium

/// Bytes that must not leak into output by accident: key-log secrets and derived keys.
///
/// `description`, `debugDescription` and the reflection mirror show only the length
/// (`<secret, 32 bytes>`), so a secret inside any value printed, dumped or interpolated
/// stays hidden. The bytes are reachable only through `withUnsafeBytes(_:)` or the
/// deliberately named `revealedBytes()`. Equality runs in constant time (`sodium_memcmp`),
/// and the storage is wiped (`sodium_memzero`) when the last copy goes away.
public struct SecretBytes: Sendable {
    private let storage: Storage

    /// Copies `bytes`.
    public init(_ bytes: RawSpan) {
        self.init(byteCount: bytes.byteCount) { destination in
            bytes.withUnsafeBytes { destination.copyMemory(from: $0) }
        }
    }

    /// Copies `bytes`.
    public init(_ bytes: [UInt8]) {
        self.init(bytes.span.bytes)
    }

    /// Fresh random bytes from libsodium's generator (`randombytes_buf`).
    public static func random(count: Int) -> SecretBytes {
        SecretBytes(byteCount: count) { SecureRandom.fill($0) }
    }

    /// Allocates `byteCount` bytes and lets `initialize` write every one of them, so that
    /// derived secrets never pass through an ordinary array first.
    init<E: Error>(
        byteCount: Int,
        initializingWith initialize: (UnsafeMutableRawBufferPointer) throws(E) -> Void
    ) throws(E) {
        let storage = Storage(byteCount: byteCount)
        try initialize(storage.bytes)
        self.storage = storage
    }

    /// The number of bytes.
    public var count: Int { storage.bytes.count }

    /// Calls `body` with the secret bytes; the pointer is valid only for the call.
    public func withUnsafeBytes<Result, E: Error>(
        _ body: (UnsafeRawBufferPointer) throws(E) -> Result
    ) throws(E) -> Result {
        try body(UnsafeRawBufferPointer(storage.bytes))
    }

    /// A copy of the secret bytes, for the few places that must show or store them on
    /// purpose (a report run with secrets enabled, a key-log writer).
    public func revealedBytes() -> [UInt8] {
        withUnsafeBytes { Array($0) }
    }

    /// The bytes without their leading zero bytes: how some SRP implementations use a
    /// 64-byte session key that happens to start with `00` (PROTOCOL §2.3).
    func strippingLeadingZeros() -> SecretBytes {
        withUnsafeBytes { bytes in
            let leadingZeros = bytes.prefix { $0 == 0 }.count
            return SecretBytes(byteCount: bytes.count - leadingZeros) { destination in
                destination.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[leadingZeros...]))
            }
        }
    }
}

extension SecretBytes: Equatable {
    /// Constant-time for equal lengths (`sodium_memcmp`); the length itself is not secret.
    public static func == (lhs: SecretBytes, rhs: SecretBytes) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.withUnsafeBytes { left in
            rhs.withUnsafeBytes { right in
                sodium_memcmp(left.baseAddress, right.baseAddress, left.count) == 0
            }
        }
    }
}

extension SecretBytes: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "<secret, \(count) bytes>" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

extension SecretBytes {
    /// One allocation, written once during `SecretBytes.init` and read-only afterwards,
    /// which is what makes sharing it between threads safe.
    private final class Storage: @unchecked Sendable {
        let bytes: UnsafeMutableRawBufferPointer

        init(byteCount: Int) {
            bytes = .allocate(byteCount: byteCount, alignment: 16)
            bytes.initializeMemory(as: UInt8.self, repeating: 0)
        }

        deinit {
            sodium_memzero(bytes.baseAddress, bytes.count)
            bytes.deallocate()
        }
    }
}
