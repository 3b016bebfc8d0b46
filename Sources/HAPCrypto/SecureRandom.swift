import CSodium

/// Random bytes from libsodium's generator (`randombytes_buf`), which reads the operating
/// system's CSPRNG.
public enum SecureRandom {
    /// `count` random bytes.
    public static func bytes(count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initializedCount in
            fill(UnsafeMutableRawBufferPointer(buffer))
            initializedCount = count
        }
    }

    /// Overwrites every byte of `buffer` with random bytes (`randombytes_buf`).
    public static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        Sodium.initialize()
        guard let base = buffer.baseAddress else { return }
        randombytes_buf(base, buffer.count)
    }
}
