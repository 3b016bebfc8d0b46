/// Finds the frames of an encrypted HAP direction that a capture joined in the middle: where
/// the first whole frame starts, which of the candidate keys seals it, and its nonce counter
/// (PROTOCOL §4.2: a frame is a 2-byte little-endian length, that many ciphertext bytes and a
/// 16-byte tag; the counter starts at 0 and rises by one per frame).
///
/// Feed it the direction's bytes from the first captured one. Frame boundaries are guessed
/// from the length fields — from an offset within the first frame, lengths of 1 to 1024 bytes
/// must chain through every byte held — and a guess is accepted only when a frame's tag
/// verifies under a key and counter, so a wrong guess or key never decrypts anything. Each
/// guess and key costs at most `counterLimit` tag checks on the shortest frame the guess
/// shows, and the direction at most `checkBudget` in all, however many keys and guesses there
/// are (a key log of many sessions against a connection none of them opens would otherwise cost
/// keys × guesses × `counterLimit`); the bytes held are bounded (`maximumHeldByteCount` plus one
/// piece), because by then every guess shows enough whole frames to be judged.
///
/// Frames longer than HAP's 1024 bytes are not looked for: conforming senders never write
/// them, and allowing the 65535 a length field can declare would make every offset a guess.
public struct HAPFrameJoiner: Sendable {
    /// Where the direction's frames were found.
    public struct Join: Sendable, Hashable {
        /// The index in the candidate keys of the key that seals the frames.
        public let keyIndex: Int
        /// Bytes before the first whole frame: the end of a frame that began before the capture.
        public let skippedByteCount: Int
        /// The nonce counter of the first whole frame.
        public let firstCounter: UInt64
        /// Tag checks spent finding it.
        public let countersTried: UInt64

        public init(keyIndex: Int, skippedByteCount: Int, firstCounter: UInt64, countersTried: UInt64) {
            self.keyIndex = keyIndex
            self.skippedByteCount = skippedByteCount
            self.firstCounter = firstCounter
            self.countersTried = countersTried
        }
    }

    /// Why no frames were found.
    public struct Failure: Sendable, Hashable, Error {
        public enum Reason: Sendable, Hashable {
            /// No offset in the bytes starts a chain of plausible frame lengths.
            case noFrameBoundary
            /// Plausible boundaries exist, but no candidate key and counter verifies a frame there.
            case noKeyOpens
        }

        public let reason: Reason
        /// The frame boundaries guessed and checked against the keys.
        public let boundariesTried: Int
        /// Tag checks spent in all.
        public let countersTried: UInt64
        /// Whether a search ran to the counter limit without an answer (a key may still be
        /// right for a session older than the limit covers).
        public let reachedCounterLimit: Bool
        /// Whether the direction's check budget ran out before every guess and key had its
        /// counters tried up to the limit.
        public let reachedCheckBudget: Bool

        public init(reason: Reason, boundariesTried: Int, countersTried: UInt64, reachedCounterLimit: Bool,
                    reachedCheckBudget: Bool = false) {
            self.reason = reason
            self.boundariesTried = boundariesTried
            self.countersTried = countersTried
            self.reachedCounterLimit = reachedCounterLimit
            self.reachedCheckBudget = reachedCheckBudget
        }
    }

    public enum Progress: Sendable, Hashable {
        case needsMoreBytes
        case joined(Join)
        case failed(Failure)
    }

    /// A frame boundary lies within the first whole frame's reach: 1024 bytes and the overhead.
    public static let maximumSkip = HAPFrame.maximumLength + HAPFrame.overheadByteCount

    private var keys: [ChaCha20Poly1305.Key?]
    public let counterLimit: UInt64
    /// The tag checks the direction may spend in all.
    public let checkBudget: UInt64
    /// The whole frames a guess must show before its keys are tried (fewer at the end of the
    /// stream): each makes a chance chain of lengths about 64 times rarer.
    public let framesToJudge: Int
    /// Whether a guess at the first byte is tried as soon as it shows one frame.
    public let trustsFirstByte: Bool
    /// From any offset within `maximumSkip`, this many bytes hold `framesToJudge` whole frames.
    public let maximumHeldByteCount: Int
    /// The direction's bytes from the first captured one, until the frames are found.
    private var held: [UInt8] = []
    /// Offsets judged: a length chain broke there, or the keys were tried.
    private var judged: [Bool] = []
    private var boundariesTried = 0
    private var countersTried: UInt64 = 0
    private var reachedCounterLimit = false
    private var reachedCheckBudget = false
    private var outcome: Progress = .needsMoreBytes

    /// - Parameters:
    ///   - keys: The keys that may seal the direction, tried in order.
    ///   - counterLimit: The most counters tried per key and boundary, from 0 up.
    ///   - checkBudget: The most tag checks spent on the direction, over every key and boundary.
    ///   - framesToJudge: The whole frames a guess must show before keys are tried on it.
    ///   - trustsFirstByte: Whether the first byte is tried as a frame start on one frame: right
    ///     for a connection known to be HAP, where the capture most often began between writes.
    public init(keys: [ChaCha20Poly1305.Key], counterLimit: UInt64, checkBudget: UInt64 = .max, framesToJudge: Int = 2,
                trustsFirstByte: Bool = true) {
        self.keys = keys
        self.counterLimit = counterLimit
        self.checkBudget = checkBudget
        self.framesToJudge = max(framesToJudge, 1)
        self.trustsFirstByte = trustsFirstByte
        maximumHeldByteCount = (self.framesToJudge + 1) * Self.maximumSkip
    }

    /// The bytes fed so far, for decrypting them once the frames are found.
    public var heldBytes: [UInt8] { held }

    public var heldByteCount: Int { held.count }

    /// Only the key at `index` is tried from now on (another direction of the session showed
    /// which session this is); the indices of `Join` stay those of the original list.
    public mutating func keepOnlyKey(at index: Int) {
        for other in keys.indices where other != index { keys[other] = nil }
    }

    /// The next bytes of the direction; tries the guesses they make judgeable.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) -> Progress {
        guard outcome == .needsMoreBytes else { return outcome }
        held.append(contentsOf: bytes)
        return attempt(streamEnded: held.count >= maximumHeldByteCount)
    }

    /// The direction ended (or a capture gap cut it): every guess that shows one whole frame is
    /// tried.
    public mutating func finish() -> Progress {
        guard outcome == .needsMoreBytes else { return outcome }
        return attempt(streamEnded: true)
    }

    private mutating func attempt(streamEnded: Bool) -> Progress {
        let reach = min(held.count, Self.maximumSkip)
        if judged.count < reach { judged.append(contentsOf: repeatElement(false, count: reach - judged.count)) }
        let found: Join? = held.withUnsafeBytes { bytes in
            for offset in 0..<reach where !judged[offset] {
                guard let frames = Self.frames(in: bytes, from: offset) else {
                    judged[offset] = true
                    continue
                }
                // The first captured byte starts a frame more often than not (the capture began
                // between writes), so that guess is tried as soon as it shows one frame.
                let judgeable = frames.count >= framesToJudge || (!frames.isEmpty && ((offset == 0 && trustsFirstByte) || streamEnded))
                guard judgeable else { continue }
                judged[offset] = true
                boundariesTried += 1
                if let join = tryKeys(bytes, frames: frames, skipped: offset) { return join }
                if reachedCheckBudget { break }
            }
            return nil
        }
        if let found {
            outcome = .joined(found)
        } else if streamEnded || reachedCheckBudget || (held.count >= Self.maximumSkip && !judged.contains(false)) {
            outcome = .failed(Failure(
                reason: boundariesTried == 0 ? .noFrameBoundary : .noKeyOpens, boundariesTried: boundariesTried,
                countersTried: countersTried, reachedCounterLimit: reachedCounterLimit, reachedCheckBudget: reachedCheckBudget))
        }
        return outcome
    }

    /// The whole frames from `offset` on, as (start, byte count), when every length field read
    /// there is plausible; nil when one is not. A frame cut off by the end of the bytes is not
    /// listed.
    private static func frames(in bytes: UnsafeRawBufferPointer, from offset: Int) -> [(start: Int, count: Int)]? {
        var frames: [(start: Int, count: Int)] = []
        var position = offset
        while bytes.count - position >= HAPFrame.lengthFieldByteCount {
            let length = Int(bytes[position]) | Int(bytes[position + 1]) << 8
            // Senders never write an empty frame, nor (conforming) one over 1024 bytes.
            guard (1...HAPFrame.maximumLength).contains(length) else { return nil }
            let count = length + HAPFrame.overheadByteCount
            guard bytes.count - position >= count else { break }
            frames.append((position, count))
            position += count
        }
        return frames
    }

    /// Searches the counters of the shortest frame, each counter under every key before the
    /// next (so that the right key is found as soon as its counter, whatever its place in the
    /// list), and confirms a hit on the first frame. The counters searched are as many as the
    /// check budget left affords for every key, up to the counter limit.
    private mutating func tryKeys(_ bytes: UnsafeRawBufferPointer, frames: [(start: Int, count: Int)], skipped: Int) -> Join? {
        let probeIndex = frames.indices.min { frames[$0].count < frames[$1].count }!
        let probe = Self.frame(bytes, frames[probeIndex])
        let first = Self.frame(bytes, frames[0])
        let candidates = keys.indices.filter { keys[$0] != nil }
        guard !candidates.isEmpty else { return nil }
        let keyCount = UInt64(candidates.count)
        let affordable = min(counterLimit, (checkBudget - countersTried) / keyCount)
        for counter in 0..<affordable {
            for keyIndex in candidates {
                let key = keys[keyIndex]!
                guard Self.authenticates(probe, key: key, counter: counter) else { continue }
                countersTried += (counter + 1) * keyCount
                let firstCounter = counter &- UInt64(probeIndex)
                guard counter >= UInt64(probeIndex), probeIndex == 0 || Self.authenticates(first, key: key, counter: firstCounter) else {
                    // The key seals this frame, but the frames before it are not frames: the guess is wrong.
                    return nil
                }
                return Join(keyIndex: keyIndex, skippedByteCount: skipped, firstCounter: firstCounter, countersTried: countersTried)
            }
        }
        countersTried += affordable * keyCount
        if affordable < counterLimit {
            reachedCheckBudget = true
        } else {
            reachedCounterLimit = true
        }
        return nil
    }

    private static func frame(_ bytes: UnsafeRawBufferPointer, _ frame: (start: Int, count: Int)) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[frame.start..<(frame.start + frame.count)])
    }

    /// Whether `frame`'s tag verifies; nothing is decrypted.
    private static func authenticates(_ frame: UnsafeRawBufferPointer, key: ChaCha20Poly1305.Key, counter: UInt64) -> Bool {
        ChaCha20Poly1305.unsafeOpen(
            UnsafeRawBufferPointer(rebasing: frame[HAPFrame.lengthFieldByteCount...]), key: key, nonce: .init(counter: counter),
            additionalData: UnsafeRawBufferPointer(rebasing: frame[..<HAPFrame.lengthFieldByteCount]), into: nil)
    }
}
