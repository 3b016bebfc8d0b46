/// libsodium takes `unsigned char *`; these spell the conversions once.
extension UnsafeRawBufferPointer {
    /// The first byte, or nil for an empty buffer without storage: libsodium accepts a null
    /// input pointer wherever the length is zero and the parameter is not declared nonnull.
    @inline(__always)
    var sodiumInput: UnsafePointer<UInt8>? {
        baseAddress?.assumingMemoryBound(to: UInt8.self)
    }
}

extension UnsafeMutableRawBufferPointer {
    /// The first byte, or nil for an empty buffer without storage.
    @inline(__always)
    var sodiumOutput: UnsafeMutablePointer<UInt8>? {
        baseAddress?.assumingMemoryBound(to: UInt8.self)
    }
}
