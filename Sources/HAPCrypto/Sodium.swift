import CSodium

/// libsodium's one-time set-up.
///
/// `sodium_init` selects the fastest ChaCha20, Poly1305 and SHA-512 code for this CPU and
/// seeds the random generator. Swift runs the initialiser of a global exactly once, under a
/// lock, on first access, which makes `Sodium.initialize()` thread-safe and cheap to call
/// from every entry point that reaches libsodium.
enum Sodium {
    @inline(__always)
    static func initialize() {
        _ = sodiumInitialization
    }
}

/// `sodium_init` returns 0 on success and 1 when already initialised; -1 means libsodium
/// has no usable random source, a broken host rather than anything an input could cause.
private let sodiumInitialization: Void = {
    precondition(sodium_init() >= 0, "libsodium failed to initialise (sodium_init returned -1)")
}()
