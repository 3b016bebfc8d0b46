/// Decrypts one direction of an encrypted HAP session from its byte stream (PROTOCOL §4.2).
///
/// Feed the stream in pieces of any size, as TCP reassembly delivers them: a frame split
/// across pieces is reassembled, several frames in one piece are each handed over, and a
/// frame that arrives whole is decrypted straight from the caller's bytes without a copy.
/// Plaintext goes into one reused buffer, so decryption allocates nothing per frame.
///
/// The first frame that fails to authenticate stops the direction: `decrypt` throws once
/// and ignores every later piece, because after a failure frame boundaries and counters
/// can no longer be trusted. Before throwing it tries nearby counters, which tells a
/// skipped or reused counter apart from a wrong key or altered bytes. A capture gap
/// (`skipGap(byteCount:)`) costs only the frame it falls into when that frame's length is
/// known; otherwise it stops the direction the same way.
public struct HAPFrameDecryptor: Sendable {
    /// Bounds on what one direction may make the decryptor do.
    public struct Configuration: Sendable, Hashable {
        /// The upper bound of `counterSearchWindow`: each counter tried costs one Poly1305
        /// pass over the frame, once per direction.
        public static let largestCounterSearchWindow = 1024

        /// The longest frame accepted, which bounds the reassembly buffer; a longer one
        /// stops the direction with `.frameTooLong`. Clamped to 0...65535; the default,
        /// 65535, accepts every frame the length field can declare. Frames longer than
        /// HAP's 1024 bytes are decoded and flagged (`HAPDecryptedFrame.anomalies`).
        public var maximumFrameLength: Int {
            didSet { maximumFrameLength = min(max(maximumFrameLength, 0), HAPFrame.largestDeclarableLength) }
        }

        /// How many counters on each side of the expected one are tried when a frame fails
        /// to authenticate; 0 turns the search off. Clamped to 0...1024.
        public var counterSearchWindow: Int {
            didSet { counterSearchWindow = min(max(counterSearchWindow, 0), Self.largestCounterSearchWindow) }
        }

        public init(maximumFrameLength: Int = HAPFrame.largestDeclarableLength, counterSearchWindow: Int = 8) {
            self.maximumFrameLength = min(max(maximumFrameLength, 0), HAPFrame.largestDeclarableLength)
            self.counterSearchWindow = min(max(counterSearchWindow, 0), Self.largestCounterSearchWindow)
        }
    }

    public let configuration: Configuration
    private let key: ChaCha20Poly1305.Key

    /// The counter the next frame must authenticate with.
    public private(set) var nextCounter: UInt64
    /// The stream offset of the next byte to be fed.
    public private(set) var streamOffset: Int
    /// The error that stopped this direction, if one did.
    public private(set) var failure: HAPFrameDecryptionError?

    /// Bytes still to come of a frame lost in a capture gap.
    private var lostFrameRemainder = 0
    /// The start of a frame whose end has not arrived yet.
    private var partialFrame: [UInt8] = []
    private var partialFrameCount = 0
    private var partialFrameOffset = 0
    /// Plaintext of the frame being handed over; grows to the longest frame seen.
    private var plaintext: [UInt8] = []

    /// - Parameters:
    ///   - key: The direction's key: `SessionKeys.accessoryToController` or
    ///     `.controllerToAccessory`.
    ///   - firstCounter: The counter of the first frame fed: 0 at the start of a session.
    ///   - streamOffset: The stream offset of the first byte fed, so that offsets in frames
    ///     and errors match the caller's stream.
    public init(key: ChaCha20Poly1305.Key, configuration: Configuration = Configuration(), firstCounter: UInt64 = 0, streamOffset: Int = 0) {
        self.key = key
        self.configuration = configuration
        self.nextCounter = firstCounter
        self.streamOffset = streamOffset
    }

    /// The bytes held of a frame that has not arrived whole: non-zero when the stream ends
    /// inside a frame.
    public var bufferedByteCount: Int { partialFrameCount }

    /// Accounts for `byteCount` stream bytes that were never captured (a TCP reassembly gap).
    ///
    /// A gap that ends inside the frame in progress, whose length field has arrived, loses
    /// only that frame: its counter is used up and decryption resumes at the next frame.
    /// Any other gap hides where the next frame starts, and stops the direction.
    ///
    /// - Returns: The counter of the frame lost in the gap; nil when no further frame was
    ///   lost (an empty gap, or one inside a frame already lost).
    /// - Throws: `HAPFrameDecryptionError` of kind `.frameBoundaryLost`.
    @discardableResult
    public mutating func skipGap(byteCount: Int) throws(HAPFrameDecryptionError) -> UInt64? {
        guard failure == nil, byteCount > 0 else { return nil }
        if lostFrameRemainder > 0 {
            // Still inside a frame already lost: nothing more is lost unless the gap runs on
            // into the next frame.
            guard byteCount <= lostFrameRemainder else {
                try stop(boundaryLost(gapByteCount: byteCount, frameOffset: streamOffset + lostFrameRemainder, declaredLength: nil))
            }
            lostFrameRemainder -= byteCount
            streamOffset += byteCount
            return nil
        }
        guard partialFrameCount >= HAPFrame.lengthFieldByteCount else {
            let frameOffset = partialFrameCount > 0 ? partialFrameOffset : streamOffset
            try stop(boundaryLost(gapByteCount: byteCount, frameOffset: frameOffset, declaredLength: nil))
        }
        let declaredLength = partialFrameDeclaredLength
        let missingCount = declaredLength + HAPFrame.overheadByteCount - partialFrameCount
        guard byteCount <= missingCount else {
            try stop(boundaryLost(gapByteCount: byteCount, frameOffset: partialFrameOffset, declaredLength: declaredLength))
        }
        let lostCounter = nextCounter
        lostFrameRemainder = missingCount - byteCount
        partialFrameCount = 0
        streamOffset += byteCount
        nextCounter &+= 1
        return lostCounter
    }

    /// Decrypts every frame that `bytes` completes, in stream order, calling `body` for
    /// each. `bytes` is read only during the call.
    ///
    /// - Throws: `HAPFrameDecryptionError` for the first frame that fails to authenticate or
    ///   is longer than the configured maximum; frames before it have been handed over.
    ///   After that, calls do nothing.
    public mutating func decrypt(_ bytes: UnsafeRawBufferPointer, forEachFrame body: (HAPDecryptedFrame) -> Void) throws(HAPFrameDecryptionError) {
        guard failure == nil, let base = bytes.baseAddress, !bytes.isEmpty else { return }
        var position = min(lostFrameRemainder, bytes.count)
        lostFrameRemainder -= position
        if partialFrameCount > 0 {
            position += try continuePartialFrame(UnsafeRawBufferPointer(rebasing: bytes[position...]), body)
        }
        // Whole frames straight from the caller's bytes: the common case, no copy.
        while bytes.count - position >= HAPFrame.lengthFieldByteCount {
            let frameOffset = streamOffset + position
            let declaredLength = Int(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt16.self)))
            try checkLength(declaredLength, frameOffset: frameOffset)
            let frameByteCount = declaredLength + HAPFrame.overheadByteCount
            guard bytes.count - position >= frameByteCount else { break }
            if let error = open(UnsafeRawBufferPointer(start: base + position, count: frameByteCount), frameOffset: frameOffset, body) {
                try stop(error)
            }
            position += frameByteCount
        }
        if position < bytes.count {
            startPartialFrame(UnsafeRawBufferPointer(rebasing: bytes[position...]), frameOffset: streamOffset + position)
        }
        streamOffset += bytes.count
    }

    /// Appends to the partial frame; decrypts it once whole. Returns how many bytes it took.
    private mutating func continuePartialFrame(_ bytes: UnsafeRawBufferPointer, _ body: (HAPDecryptedFrame) -> Void) throws(HAPFrameDecryptionError) -> Int {
        var position = 0
        if partialFrameCount < HAPFrame.lengthFieldByteCount {
            position = appendToPartialFrame(bytes, upTo: HAPFrame.lengthFieldByteCount)
            guard partialFrameCount == HAPFrame.lengthFieldByteCount else { return position }
        }
        let declaredLength = partialFrameDeclaredLength
        try checkLength(declaredLength, frameOffset: partialFrameOffset)
        let frameByteCount = declaredLength + HAPFrame.overheadByteCount
        position += appendToPartialFrame(UnsafeRawBufferPointer(rebasing: bytes[position...]), upTo: frameByteCount)
        guard partialFrameCount == frameByteCount else { return position }
        // The partial buffer is moved out while it is read, so `open` may mutate `self`.
        let frame = partialFrame
        partialFrame = []
        defer { partialFrame = frame }
        partialFrameCount = 0
        let frameOffset = partialFrameOffset
        let error = frame.withUnsafeBytes { frame in
            open(UnsafeRawBufferPointer(rebasing: frame[..<frameByteCount]), frameOffset: frameOffset, body)
        }
        if let error { try stop(error) }
        return position
    }

    /// The length field of the partial frame, once both its bytes are held.
    private var partialFrameDeclaredLength: Int {
        Int(UInt16(partialFrame[0]) | UInt16(partialFrame[1]) << 8)
    }

    /// Keeps the incomplete frame at the end of a piece.
    private mutating func startPartialFrame(_ bytes: UnsafeRawBufferPointer, frameOffset: Int) {
        partialFrameOffset = frameOffset
        partialFrameCount = 0
        _ = appendToPartialFrame(bytes, upTo: bytes.count)
    }

    /// Copies bytes until the partial frame holds `targetCount`; returns how many it copied.
    private mutating func appendToPartialFrame(_ bytes: UnsafeRawBufferPointer, upTo targetCount: Int) -> Int {
        let copyCount = min(targetCount - partialFrameCount, bytes.count)
        let requiredCount = partialFrameCount + copyCount
        if partialFrame.count < requiredCount {
            // Sized for a full HAP frame at once, so a session normally allocates this once.
            let newCount = max(requiredCount, HAPFrame.maximumLength + HAPFrame.overheadByteCount)
            partialFrame.append(contentsOf: repeatElement(0, count: newCount - partialFrame.count))
        }
        partialFrame.withUnsafeMutableBytes { partial in
            UnsafeMutableRawBufferPointer(rebasing: partial[partialFrameCount..<requiredCount])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[..<copyCount]))
        }
        partialFrameCount = requiredCount
        return copyCount
    }

    private mutating func checkLength(_ declaredLength: Int, frameOffset: Int) throws(HAPFrameDecryptionError) {
        guard declaredLength <= configuration.maximumFrameLength else {
            try stop(HAPFrameDecryptionError(
                .frameTooLong(maximumLength: configuration.maximumFrameLength),
                counter: nextCounter, streamOffset: frameOffset, declaredLength: declaredLength))
        }
    }

    /// Authenticates and decrypts one whole frame and hands it to `body`; returns the error
    /// when it does not authenticate.
    @inline(__always)
    private mutating func open(_ frame: UnsafeRawBufferPointer, frameOffset: Int, _ body: (HAPDecryptedFrame) -> Void) -> HAPFrameDecryptionError? {
        let declaredLength = frame.count - HAPFrame.overheadByteCount
        if plaintext.count < declaredLength {
            plaintext.append(contentsOf: repeatElement(0, count: max(declaredLength, HAPFrame.maximumLength) - plaintext.count))
        }
        let lengthField = UnsafeRawBufferPointer(rebasing: frame[..<HAPFrame.lengthFieldByteCount])
        let sealed = UnsafeRawBufferPointer(rebasing: frame[HAPFrame.lengthFieldByteCount...])
        let counter = nextCounter
        let isAuthentic = plaintext.withUnsafeMutableBytes { [key] output in
            guard ChaCha20Poly1305.unsafeOpen(sealed, key: key, nonce: .init(counter: counter), additionalData: lengthField, into: output) else {
                return false
            }
            body(HAPDecryptedFrame(
                counter: counter, declaredLength: declaredLength, streamOffset: frameOffset,
                plaintext: UnsafeRawBufferPointer(rebasing: output[..<declaredLength])))
            return true
        }
        guard isAuthentic else {
            return HAPFrameDecryptionError(
                .authenticationFailed, counter: counter, streamOffset: frameOffset, declaredLength: declaredLength,
                authenticatingCounter: searchCounters(sealed: sealed, lengthField: lengthField),
                searchedCounterWindow: configuration.counterSearchWindow)
        }
        nextCounter &+= 1
        return nil
    }

    /// The nearest counter within the window, later ones first at each distance, under
    /// which the frame authenticates. Only tags are checked; nothing is decrypted.
    private func searchCounters(sealed: UnsafeRawBufferPointer, lengthField: UnsafeRawBufferPointer) -> UInt64? {
        let window = UInt64(configuration.counterSearchWindow)
        guard window > 0 else { return nil }
        func authenticates(_ counter: (partialValue: UInt64, overflow: Bool)) -> Bool {
            !counter.overflow && ChaCha20Poly1305.unsafeOpen(
                sealed, key: key, nonce: .init(counter: counter.partialValue), additionalData: lengthField, into: nil)
        }
        for distance in 1...window {
            let later = nextCounter.addingReportingOverflow(distance)
            if authenticates(later) { return later.partialValue }
            let earlier = nextCounter.subtractingReportingOverflow(distance)
            if authenticates(earlier) { return earlier.partialValue }
        }
        return nil
    }

    private func boundaryLost(gapByteCount: Int, frameOffset: Int, declaredLength: Int?) -> HAPFrameDecryptionError {
        HAPFrameDecryptionError(
            .frameBoundaryLost(gapByteCount: gapByteCount), counter: nextCounter, streamOffset: frameOffset, declaredLength: declaredLength)
    }

    private mutating func stop(_ error: HAPFrameDecryptionError) throws(HAPFrameDecryptionError) -> Never {
        failure = error
        partialFrameCount = 0
        throw error
    }
}
