import WireParsing

/// Bounds on PDUs `PDUReassembler` holds while their fragments arrive.
public struct PDUReassemblyLimits: Hashable, Sendable {
    /// The longest body a reassembly may build; the body length field is 16 bits, so 65,535
    /// admits every legal PDU.
    public var maximumBodyLength: Int
    /// PDUs in progress at once (HAP-BLE allows one transaction per connection at a time).
    public var maximumPendingPDUs: Int

    public init(maximumBodyLength: Int = 65_535, maximumPendingPDUs: Int = 8) {
        self.maximumBodyLength = maximumBodyLength
        self.maximumPendingPDUs = maximumPendingPDUs
    }
}

/// Joins the fragments of HAP PDUs by TID and type, for one direction of one connection
/// (HAP: HAP PDU Fragmentation Scheme; HomeKitADK `HAPBLEPDUDeserializeContinuation`).
///
/// Problems are `DecodeError`s in the `hapPDU` layer, at the offset the caller gives:
/// - a continuation with no first fragment pending for its TID and type is malformed;
/// - a continuation carrying more than the announced body is malformed, and the PDU dropped;
/// - a first fragment whose TID is already pending replaces the pending PDU (malformed);
/// - a body over `maximumBodyLength`, or a PDU beyond `maximumPendingPDUs`, is refused
///   (`limitExceeded`);
/// - `finish` reports PDUs still incomplete as truncated.
public struct PDUReassembler {
    public let limits: PDUReassemblyLimits

    struct Key: Hashable {
        let transactionID: UInt8
        let type: HAPPDUControlField.PDUType
    }

    private var pending: [(key: Key, pdu: HAPPDU)] = []

    public init(limits: PDUReassemblyLimits = PDUReassemblyLimits()) {
        self.limits = limits
    }

    public var pendingPDUCount: Int { pending.count }

    public struct Result: Hashable, Sendable {
        /// A whole PDU: a request or a response with its complete body.
        public var pdu: HAPPDU?
        public var problems: [DecodeError]

        public init(pdu: HAPPDU? = nil, problems: [DecodeError] = []) {
            self.pdu = pdu
            self.problems = problems
        }
    }

    /// Takes one PDU or fragment as `HAPPDU(parsing:)` read it, whose first byte is at `offset`.
    public mutating func add(_ pdu: HAPPDU, offset: Int) -> Result {
        guard let type = pdu.control.type else {
            return Result(problems: [DecodeError(.malformed, layer: .hapPDU, offset: offset, expected: "a request or response PDU")])
        }
        let key = Key(transactionID: pdu.transactionID, type: type)
        let index = pending.firstIndex { $0.key == key }
        guard case .continuation(let continuation) = pdu else {
            var problems: [DecodeError] = []
            if let index {
                pending.remove(at: index)
                problems.append(DecodeError(
                    .malformed, layer: .hapPDU, offset: offset,
                    expected: "a continuation of the pending PDU with TID 0x\(String(key.transactionID, radix: 16)), found a new first fragment"))
            }
            let (bodyLength, bodyCount) = Self.bodyProgress(pdu)
            if bodyCount >= bodyLength { return Result(pdu: pdu, problems: problems) }
            guard bodyLength <= limits.maximumBodyLength else {
                problems.append(DecodeError(
                    .limitExceeded, layer: .hapPDU, offset: offset,
                    expected: "a PDU body of at most \(limits.maximumBodyLength) bytes, found a length of \(bodyLength)"))
                return Result(problems: problems)
            }
            guard pending.count < limits.maximumPendingPDUs else {
                problems.append(DecodeError(
                    .limitExceeded, layer: .hapPDU, offset: offset, expected: "at most \(limits.maximumPendingPDUs) PDUs in progress"))
                return Result(problems: problems)
            }
            pending.append((key, pdu))
            return Result(problems: problems)
        }
        guard let index else {
            return Result(problems: [DecodeError(
                .malformed, layer: .hapPDU, offset: offset,
                expected: "a first fragment before this continuation with TID 0x\(String(key.transactionID, radix: 16))")])
        }
        var joined = pending[index].pdu
        switch joined {
        case .request(var request):
            request.body += continuation.body
            joined = .request(request)
        case .response(var response):
            response.body += continuation.body
            joined = .response(response)
        case .continuation:
            break
        }
        let (bodyLength, bodyCount) = Self.bodyProgress(joined)
        if bodyCount < bodyLength {
            pending[index].pdu = joined
            return Result()
        }
        pending.remove(at: index)
        if bodyCount > bodyLength {
            return Result(problems: [DecodeError(
                .malformed, layer: .hapPDU, offset: offset,
                expected: "continuations adding up to the \(bodyLength)-byte body, found \(bodyCount) bytes")])
        }
        return Result(pdu: joined)
    }

    /// Reports the PDUs still waiting for fragments as truncated and forgets them.
    public mutating func finish(offset: Int) -> [DecodeError] {
        defer { pending.removeAll() }
        return pending.map { entry in
            let (length, count) = Self.bodyProgress(entry.pdu)
            return DecodeError(
                .truncated, layer: .hapPDU, offset: offset,
                expected: "the rest of the \(length)-byte body of the PDU with TID 0x\(String(entry.key.transactionID, radix: 16)) (\(count) bytes received)")
        }
    }

    private static func bodyProgress(_ pdu: HAPPDU) -> (length: Int, count: Int) {
        switch pdu {
        case .request(let request): (request.bodyLength ?? 0, request.body.count)
        case .response(let response): (response.bodyLength ?? 0, response.body.count)
        case .continuation(let continuation): (0, continuation.body.count)
        }
    }
}
