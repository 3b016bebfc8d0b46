import Testing
import WireParsing
@testable import CoAP

@Suite("Block-wise assembly")
struct BlockwiseAssemblerTests {
    static let body = (0 ..< 2500).map { UInt8(truncatingIfNeeded: $0 * 7) }

    func block(_ number: UInt32, more: Bool, szx: UInt8 = 6) -> CoAPBlockOption {
        CoAPBlockOption(number: number, hasMore: more, sizeExponent: szx)
    }

    func slice(_ number: Int, size: Int = 1024) -> [UInt8] {
        Array(Self.body[number * size ..< min(Self.body.count, (number + 1) * size)])
    }

    @Test("A 2500-byte database in three 1024-byte Block2 blocks (aiocoap with aiohomekit)")
    func threeBlocks() {
        var assembler = BlockwiseAssembler<String>()
        #expect(assembler.add(block(0, more: true), payload: slice(0), key: "db", offset: 0) == .needsMore)
        #expect(assembler.add(block(1, more: true), payload: slice(1), key: "db", offset: 0) == .needsMore)
        #expect(assembler.add(block(2, more: false), payload: slice(2), key: "db", offset: 0) == .complete(Self.body))
        #expect(assembler.pendingTransferCount == 0)
    }

    @Test("A retransmitted block is a duplicate; a smaller size continues at the same offset")
    func duplicatesAndSizeChange() {
        var assembler = BlockwiseAssembler<Int>()
        _ = assembler.add(block(0, more: true), payload: slice(0), key: 1, offset: 0)
        #expect(assembler.add(block(0, more: true), payload: slice(0), key: 1, offset: 0) == .duplicate)
        // Continue with 512-byte blocks: block 2 of size 512 starts at 1024.
        #expect(assembler.add(block(2, more: true, szx: 5), payload: slice(2, size: 512), key: 1, offset: 0) == .needsMore)
        #expect(assembler.add(block(3, more: true, szx: 5), payload: slice(3, size: 512), key: 1, offset: 0) == .needsMore)
        #expect(assembler.add(block(4, more: false, szx: 5), payload: slice(4, size: 512), key: 1, offset: 0) == .complete(Self.body))
    }

    @Test("Gaps, conflicting repeats, a later block first and a short middle block are malformed")
    func malformed() {
        var assembler = BlockwiseAssembler<Int>()
        #expect(assembler.add(block(1, more: true), payload: slice(1), key: 1, offset: 9) == .rejected(DecodeError(.malformed, layer: .coap, offset: 9, expected: "")))
        _ = assembler.add(block(0, more: true), payload: slice(0), key: 1, offset: 0)
        guard case .rejected(let gap) = assembler.add(block(2, more: false), payload: slice(2), key: 1, offset: 0) else {
            Issue.record("a gap was accepted")
            return
        }
        #expect(gap.code == .malformed && assembler.pendingTransferCount == 0)
        _ = assembler.add(block(0, more: true), payload: slice(0), key: 1, offset: 0)
        _ = assembler.add(block(1, more: true), payload: slice(1), key: 1, offset: 0)
        var changed = slice(1)
        changed[0] ^= 0xFF
        guard case .rejected = assembler.add(block(1, more: true), payload: changed, key: 1, offset: 0) else {
            Issue.record("a conflicting repeat was accepted")
            return
        }
        // A different block 0 is a new request for the body: the transfer starts anew.
        #expect(assembler.add(block(0, more: true), payload: slice(1), key: 1, offset: 0) == .needsMore)
        guard case .rejected = assembler.add(block(0, more: true), payload: [1, 2, 3], key: 2, offset: 0) else {
            Issue.record("a short block with more to come was accepted")
            return
        }
    }

    @Test("Body and transfer limits; finish reports what is left as truncated")
    func limits() {
        var assembler = BlockwiseAssembler<Int>(limits: BlockwiseLimits(maximumBodyLength: 2000, maximumPendingTransfers: 1))
        _ = assembler.add(block(0, more: true), payload: slice(0), key: 1, offset: 0)
        guard case .rejected(let tooLong) = assembler.add(block(1, more: true), payload: slice(1), key: 1, offset: 0) else {
            Issue.record("an overlong body was accepted")
            return
        }
        #expect(tooLong.code == .limitExceeded)
        _ = assembler.add(block(0, more: true), payload: slice(0), key: 1, offset: 0)
        guard case .rejected(let tooMany) = assembler.add(block(0, more: true), payload: slice(0), key: 2, offset: 0) else {
            Issue.record("a second transfer was accepted")
            return
        }
        #expect(tooMany.code == .limitExceeded)
        #expect(assembler.finish(offset: 0).map(\.code) == [.truncated])
    }
}
