import WireParsing

/// Bounds on the bodies `BlockwiseAssembler` builds.
public struct BlockwiseLimits: Hashable, Sendable {
    /// The longest body one transfer may build.
    public var maximumBodyLength: Int
    /// Transfers in progress at once.
    public var maximumPendingTransfers: Int

    /// HAP databases travel in Block2 (aiohomekit over aiocoap, 1024-byte blocks); 1 MiB holds
    /// the largest bridge databases with room to spare.
    public init(maximumBodyLength: Int = 1 << 20, maximumPendingTransfers: Int = 16) {
        self.maximumBodyLength = maximumBodyLength
        self.maximumPendingTransfers = maximumPendingTransfers
    }
}

/// Joins the blocks of Block1 or Block2 transfers into whole bodies (RFC 7959 §2).
///
/// The caller chooses the key that ties the blocks of one body together: the blocks of one
/// transfer may carry different tokens (RFC 7959 §2.3 leaves that to the client), so the key is
/// usually the endpoints and the request's URI rather than the token. Blocks must arrive in
/// order; a retransmitted block (one that ends at or before what is held and matches it) is
/// ignored, and a block 0 that differs from what is held starts the body anew (a new request
/// for it). Problems are `DecodeError`s in the `coap` layer at the caller's offset:
/// - a block that starts after the bytes held (a gap) or overlaps them with different bytes
///   is malformed, and the transfer is dropped;
/// - a block before the last (M set) whose payload is not exactly the block size is malformed;
/// - a body over `maximumBodyLength`, or a transfer beyond `maximumPendingTransfers`, is
///   refused (`limitExceeded`);
/// - `finish` reports transfers still incomplete as truncated.
public struct BlockwiseAssembler<Key: Hashable> {
    public let limits: BlockwiseLimits
    private var pending: [Key: [UInt8]] = [:]

    public init(limits: BlockwiseLimits = BlockwiseLimits()) {
        self.limits = limits
    }

    public var pendingTransferCount: Int { pending.count }

    /// The bytes of the bodies being joined.
    public private(set) var heldByteCount = 0

    /// Drops every transfer in progress (a memory budget was exceeded); returns how many.
    public mutating func discardAll() -> Int {
        defer {
            pending.removeAll()
            heldByteCount = 0
        }
        return pending.count
    }

    public enum Outcome: Hashable, Sendable {
        /// The block was held; more are due.
        case needsMore
        /// The last block arrived: the whole body.
        case complete([UInt8])
        /// A copy of a block already held.
        case duplicate
        /// The block broke the rules or a limit; the transfer (if any) was dropped.
        case rejected(DecodeError)
    }

    /// Takes the block `block` says `payload` is, for the transfer `key`.
    public mutating func add(_ block: CoAPBlockOption, payload: [UInt8], key: Key, offset: Int) -> Outcome {
        let before = pending[key]?.count ?? 0
        let outcome = join(block, payload: payload, key: key, offset: offset)
        heldByteCount += (pending[key]?.count ?? 0) - before
        return outcome
    }

    private mutating func join(_ block: CoAPBlockOption, payload: [UInt8], key: Key, offset: Int) -> Outcome {
        let start = block.offset
        if block.hasMore, payload.count != block.size {
            pending[key] = nil
            return .rejected(DecodeError(
                .malformed, layer: .coap, offset: offset,
                expected: "a \(block.size)-byte payload in block \(block.number), which has more blocks after it, found \(payload.count)"))
        }
        guard start <= limits.maximumBodyLength, payload.count <= limits.maximumBodyLength - start else {
            pending[key] = nil
            return .rejected(DecodeError(
                .limitExceeded, layer: .coap, offset: offset, expected: "a block-wise body of at most \(limits.maximumBodyLength) bytes"))
        }
        var body: [UInt8]
        if block.number == 0 {
            if let held = pending[key], held.count >= payload.count, held.starts(with: payload), block.hasMore {
                return .duplicate
            }
            body = []
        } else {
            guard let held = pending[key] else {
                return .rejected(DecodeError(
                    .malformed, layer: .coap, offset: offset, expected: "block 0 before block \(block.number) of a block-wise transfer"))
            }
            body = held
        }
        if start < body.count {
            let end = start + payload.count
            guard end <= body.count, body[start ..< end].elementsEqual(payload) else {
                pending[key] = nil
                return .rejected(DecodeError(
                    .malformed, layer: .coap, offset: offset,
                    expected: "block \(block.number) at byte \(start) to repeat the \(body.count) bytes held, or follow them"))
            }
            return .duplicate
        }
        guard start == body.count else {
            pending[key] = nil
            return .rejected(DecodeError(
                .malformed, layer: .coap, offset: offset,
                expected: "block \(block.number) to start at byte \(body.count), after the bytes held, found \(start)"))
        }
        if pending[key] == nil, block.hasMore, pending.count >= limits.maximumPendingTransfers {
            return .rejected(DecodeError(
                .limitExceeded, layer: .coap, offset: offset, expected: "at most \(limits.maximumPendingTransfers) block-wise transfers in progress"))
        }
        body += payload
        if block.hasMore {
            pending[key] = body
            return .needsMore
        }
        pending[key] = nil
        return .complete(body)
    }

    /// Reports the transfers still waiting for blocks as truncated and forgets them.
    public mutating func finish(offset: Int) -> [DecodeError] {
        defer {
            pending.removeAll()
            heldByteCount = 0
        }
        return pending.values.map { body in
            DecodeError(.truncated, layer: .coap, offset: offset, expected: "the rest of a block-wise body (\(body.count) bytes received)")
        }
    }
}
