import WireParsing

/// Bounds on what `ACLReassembler` holds for fragments still waiting for the rest of their
/// L2CAP frame.
public struct ACLReassemblyLimits: Hashable, Sendable {
    /// The longest L2CAP frame, header included, a reassembly may build. The L2CAP length is
    /// 16 bits, so 65,539 admits every legal frame.
    public var maximumFrameLength: Int
    /// Connections (handle and direction) with a frame in progress at once.
    public var maximumPendingFrames: Int

    public init(maximumFrameLength: Int = 65_539, maximumPendingFrames: Int = 32) {
        self.maximumFrameLength = maximumFrameLength
        self.maximumPendingFrames = maximumPendingFrames
    }
}

/// Joins ACL fragments into whole L2CAP frames, per connection handle and direction, using the
/// L2CAP length of each frame's first fragment (Core Vol 3 Part A §7.2).
///
/// A fragment that is a whole frame is handed back as `.inFragment`, with nothing copied; only
/// frames sent in several fragments are copied into a buffer. Broken sequences are reported,
/// and the reassembler goes on with the next start:
/// - a continuation without a start, or one that makes the frame longer than its L2CAP length,
///   is malformed and discarded (with the frame it would have extended);
/// - a start while a frame is pending discards the pending one (malformed) and begins anew;
/// - a frame longer than `maximumFrameLength`, or a new frame when `maximumPendingFrames`
///   connections already have one, is refused (`limitExceeded`);
/// - `finish()` reports frames the capture ended inside as truncated.
///
/// Problems are `DecodeError`s in the `l2cap` layer, with the offset the caller gives for the
/// fragment's first byte.
public struct ACLReassembler {
    public let limits: ACLReassemblyLimits

    /// A frame in progress.
    struct PendingFrame {
        let key: Key
        var bytes: [UInt8]
        /// Known once the first four bytes (the L2CAP header) are present.
        var expectedLength: Int?
    }

    struct Key: Hashable {
        let handle: UInt16
        let direction: HCIDirection
    }

    private var pending: [PendingFrame] = []

    public init(limits: ACLReassemblyLimits = ACLReassemblyLimits()) {
        self.limits = limits
    }

    /// Connections with a frame in progress.
    public var pendingFrameCount: Int { pending.count }

    /// Bytes held for frames in progress.
    public var pendingByteCount: Int { pending.reduce(0) { $0 + $1.bytes.count } }

    /// What one fragment completed.
    public enum Frame: Hashable, Sendable {
        /// The fragment is one whole L2CAP frame: decode it where it is.
        case inFragment
        /// The fragment completed a frame begun earlier: its bytes, header included.
        case joined([UInt8])
    }

    public struct Result: Hashable, Sendable {
        /// The frame this fragment completed, if any.
        public var frame: Frame?
        /// What went wrong on the way, in order: a pending frame discarded, this fragment refused.
        public var problems: [DecodeError]

        public init(frame: Frame? = nil, problems: [DecodeError] = []) {
            self.frame = frame
            self.problems = problems
        }

        init(problem: DecodeError) {
            self.init(problems: [problem])
        }
    }

    /// Takes one ACL fragment: its header, its bytes, and the absolute offset of its first byte.
    public mutating func add(
        _ header: ACLDataHeader, direction: HCIDirection, fragment: RawSpan, offset: Int
    ) -> Result {
        let key = Key(handle: header.handle, direction: direction)
        let index = pending.firstIndex { $0.key == key }
        if header.packetBoundary.isStart {
            var abandonment: [DecodeError] = []
            if let index {
                let abandoned = pending.remove(at: index)
                abandonment.append(DecodeError(
                    .malformed, layer: .l2cap, offset: offset,
                    expected: "a continuation of the \(abandoned.expectedLength.map { "\($0)-byte " } ?? "")L2CAP frame pending on handle 0x\(String(header.handle, radix: 16)) (\(abandoned.bytes.count) bytes so far), found a new start"))
            }
            var result = start(key, fragment: fragment, offset: offset)
            result.problems.insert(contentsOf: abandonment, at: 0)
            return result
        }
        guard let index else {
            return Result(problem: DecodeError(
                .malformed, layer: .l2cap, offset: offset,
                expected: "a start fragment before this continuation on handle 0x\(String(header.handle, radix: 16))"))
        }
        pending[index].bytes.append(contentsOf: fragment.withUnsafeBytes { Array($0) })
        return settle(at: index, offset: offset)
    }

    /// Reports every frame still in progress as truncated and forgets it: call it when the
    /// input ends, or when a connection closes (with its handle).
    public mutating func finish(handle: UInt16? = nil, offset: Int) -> [DecodeError] {
        var problems: [DecodeError] = []
        pending.removeAll { frame in
            guard handle == nil || frame.key.handle == handle else { return false }
            problems.append(DecodeError(
                .truncated, layer: .l2cap, offset: offset,
                expected: "the rest of the \(frame.expectedLength.map { "\($0)-byte " } ?? "")L2CAP frame on handle 0x\(String(frame.key.handle, radix: 16)) (\(frame.bytes.count) bytes received)"))
            return true
        }
        return problems
    }

    private mutating func start(_ key: Key, fragment: RawSpan, offset: Int) -> Result {
        if let length = Self.frameLength(fragment) {
            guard length <= limits.maximumFrameLength else {
                return Result(problem: DecodeError(
                    .limitExceeded, layer: .l2cap, offset: offset,
                    expected: "an L2CAP frame of at most \(limits.maximumFrameLength) bytes, found \(length)"))
            }
            if fragment.byteCount == length { return Result(frame: .inFragment) }
            if fragment.byteCount > length {
                return Result(problem: DecodeError(
                    .malformed, layer: .l2cap, offset: offset,
                    expected: "an ACL fragment of at most the \(length)-byte L2CAP frame it starts, found \(fragment.byteCount) bytes"))
            }
        }
        guard pending.count < limits.maximumPendingFrames else {
            return Result(problem: DecodeError(
                .limitExceeded, layer: .l2cap, offset: offset,
                expected: "at most \(limits.maximumPendingFrames) L2CAP frames in progress at once"))
        }
        pending.append(PendingFrame(key: key, bytes: fragment.withUnsafeBytes { Array($0) }, expectedLength: Self.frameLength(fragment)))
        return Result()
    }

    /// Checks the frame at `index` after bytes were added: complete, still short, or too long.
    private mutating func settle(at index: Int, offset: Int) -> Result {
        if pending[index].expectedLength == nil, pending[index].bytes.count >= L2CAPBasicHeader.length {
            let length = pending[index].bytes.withUnsafeBytes { Self.frameLength(RawSpan(_unsafeBytes: $0)) }
            pending[index].expectedLength = length
            if let length, length > limits.maximumFrameLength {
                pending.remove(at: index)
                return Result(problem: DecodeError(
                    .limitExceeded, layer: .l2cap, offset: offset,
                    expected: "an L2CAP frame of at most \(limits.maximumFrameLength) bytes, found \(length)"))
            }
        }
        let count = pending[index].bytes.count
        guard let expected = pending[index].expectedLength else { return Result() }
        if count < expected { return Result() }
        let frame = pending.remove(at: index)
        if count > expected {
            return Result(problem: DecodeError(
                .malformed, layer: .l2cap, offset: offset,
                expected: "continuations adding up to the \(expected)-byte L2CAP frame, found \(count) bytes"))
        }
        return Result(frame: .joined(frame.bytes))
    }

    /// The length of the whole frame (header included) whose first bytes are `bytes`, once the
    /// four header bytes are there.
    private static func frameLength(_ bytes: RawSpan) -> Int? {
        guard bytes.byteCount >= L2CAPBasicHeader.length else { return nil }
        let low = Int(bytes.unsafeLoad(fromByteOffset: 0, as: UInt8.self))
        let high = Int(bytes.unsafeLoad(fromByteOffset: 1, as: UInt8.self))
        return L2CAPBasicHeader.length + (low | high << 8)
    }
}
