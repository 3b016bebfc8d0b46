/// A libsodium multi-part function with a 64-byte result over a state it owns (SHA-512,
/// HMAC-SHA-512). A conformer wraps the C `update` and `final` calls; the ways of feeding it
/// and of taking the result are written here once.
package protocol MultipartDigest {
    /// The result length in bytes.
    static var byteCount: Int { get }

    /// Appends `message`.
    mutating func update(_ message: UnsafeRawBufferPointer)

    /// Writes the result into the first `byteCount` bytes of `output`, which the caller
    /// guarantees are there, and wipes the state; a result used as a key can so go straight
    /// into secret storage.
    consuming func finalize(into output: UnsafeMutableRawBufferPointer)
}

extension MultipartDigest {
    /// Appends `message`.
    package mutating func update(_ message: RawSpan) {
        message.withUnsafeBytes { update($0) }
    }

    /// The result of everything appended.
    package consuming func finalize() -> [UInt8] {
        // A closure cannot consume `self`; the state moves into a local it can.
        let function = self
        return [UInt8](unsafeUninitializedCapacity: Self.byteCount) { buffer, initializedCount in
            function.finalize(into: UnsafeMutableRawBufferPointer(buffer))
            initializedCount = Self.byteCount
        }
    }
}
