import HAPCrypto

/// Follows HAP frame boundaries in a direction hapscope has no key for, to count frames and sizes
/// (PROTOCOL §4.2: a 2-byte little-endian length, that many ciphertext bytes, a 16-byte tag).
struct FrameScanner {
    /// Bytes of the current frame still to come, or nil at a frame boundary.
    private var remaining: Int?
    /// The length field's first byte, when a frame header was split across pieces.
    private var pendingLengthByte: UInt8?
    /// Set once the boundary is lost (a gap); nothing more is counted.
    private(set) var lostSync = false

    /// Whether the next byte starts a frame: the boundary is known and no frame is in progress.
    var isAtFrameBoundary: Bool { !lostSync && remaining == nil && pendingLengthByte == nil }

    /// Counts the frames in `bytes`; `onFrameStart` sees each frame's declared length as its
    /// header completes.
    mutating func scan(_ bytes: UnsafeRawBufferPointer, onFrameStart: (Int) -> Void) {
        guard !lostSync else { return }
        var index = 0
        while index < bytes.count {
            if let left = remaining {
                let take = min(left, bytes.count - index)
                index += take
                remaining = left - take == 0 ? nil : left - take
                continue
            }
            if let low = pendingLengthByte {
                let length = Int(low) | Int(bytes[index]) << 8
                pendingLengthByte = nil
                index += 1
                remaining = length + HAPFrame.tagByteCount
                onFrameStart(length)
                continue
            }
            if index + 1 < bytes.count {
                let length = Int(bytes[index]) | Int(bytes[index + 1]) << 8
                index += 2
                remaining = length + HAPFrame.tagByteCount
                onFrameStart(length)
            } else {
                pendingLengthByte = bytes[index]
                index += 1
            }
        }
    }

    /// A gap: the frame boundary cannot be found again.
    mutating func loseSync() {
        lostSync = true
    }
}
