/// Why a `HAPFrameDecryptor` stopped: the frame, by counter and stream offset, and what was
/// wrong with it.
public struct HAPFrameDecryptionError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// The tag does not match under the expected counter.
        case authenticationFailed
        /// The declared length is above the configured maximum.
        case frameTooLong(maximumLength: Int)
        /// A capture gap hides where the next frame starts.
        case frameBoundaryLost(gapByteCount: Int)
    }

    public var kind: Kind
    /// The counter the frame was expected to carry.
    public var counter: UInt64
    /// The stream offset of the frame's length field; for a lost boundary with no frame in
    /// progress, the offset where the gap starts.
    public var streamOffset: Int
    /// The frame's length field; nil when it was not captured.
    public var declaredLength: Int?
    /// For an authentication failure: a nearby counter the frame does authenticate with,
    /// found by the decryptor's counter search. `counter + 1` means the sender skipped a
    /// counter (or a frame is missing); `counter - 1` means it reused one, a nonce reuse.
    public var authenticatingCounter: UInt64?
    /// How many counters the search tried on each side of `counter`; 0 when it did not run.
    public var searchedCounterWindow: Int

    public init(
        _ kind: Kind, counter: UInt64, streamOffset: Int, declaredLength: Int?,
        authenticatingCounter: UInt64? = nil, searchedCounterWindow: Int = 0
    ) {
        self.kind = kind
        self.counter = counter
        self.streamOffset = streamOffset
        self.declaredLength = declaredLength
        self.authenticatingCounter = authenticatingCounter
        self.searchedCounterWindow = searchedCounterWindow
    }

    public var description: String {
        let length = declaredLength.map { "\($0) bytes declared" } ?? "length not captured"
        let frame = "HAP frame \(counter) at stream offset \(streamOffset) (\(length))"
        switch kind {
        case .frameTooLong(let maximumLength):
            return "\(frame) is longer than the configured maximum of \(maximumLength) bytes"
        case .frameBoundaryLost(let gapByteCount):
            return "\(frame): a capture gap of \(gapByteCount) bytes hides where the next frame starts"
        case .authenticationFailed:
            return "\(frame) fails authentication; \(diagnosis)"
        }
    }

    private var diagnosis: String {
        guard let found = authenticatingCounter else {
            guard searchedCounterWindow > 0 else { return "wrong key or altered bytes" }
            return "no counter within ±\(searchedCounterWindow) authenticates it: wrong key or altered bytes"
        }
        if found > counter {
            let skipped = found - counter
            return "it authenticates with counter \(found): the sender skipped \(skipped) counter value\(skipped == 1 ? "" : "s") or frames are missing"
        }
        return "it authenticates with counter \(found): the sender reused a counter (nonce reuse)"
    }
}
