import Testing
import WireParsing
@testable import Bluetooth

@Suite("ACL reassembly into L2CAP frames")
struct ACLReassemblerTests {
    /// An ATT Handle Value Notification of 40 value bytes in an L2CAP frame of 47 bytes.
    static let frame = hex("2b00 0400 1b 1000") + (0 ..< 40).map { UInt8($0) }

    func header(_ boundary: ACLDataHeader.PacketBoundary, _ count: Int, handle: UInt16 = 0x40) -> ACLDataHeader {
        ACLDataHeader(handle: handle, packetBoundary: boundary, dataLength: count)
    }

    func add(_ reassembler: inout ACLReassembler, _ boundary: ACLDataHeader.PacketBoundary, _ bytes: [UInt8],
             handle: UInt16 = 0x40, direction: HCIDirection = .controllerToHost) -> ACLReassembler.Result {
        reassembler.add(header(boundary, bytes.count, handle: handle), direction: direction, fragment: bytes.span.bytes, offset: 100)
    }

    @Test("A fragment holding a whole frame is handed back in place, nothing held")
    func wholeFrame() {
        var reassembler = ACLReassembler()
        let result = add(&reassembler, .firstFlushable, Self.frame)
        #expect(result == ACLReassembler.Result(frame: .inFragment))
        #expect(reassembler.pendingFrameCount == 0)
    }

    @Test("Start and continuations join into the frame, for every split point")
    func everySplit() {
        for cut in 1 ..< Self.frame.count {
            var reassembler = ACLReassembler()
            #expect(add(&reassembler, .firstNonFlushable, Array(Self.frame[..<cut])) == ACLReassembler.Result())
            #expect(add(&reassembler, .continuation, Array(Self.frame[cut...])) == ACLReassembler.Result(frame: .joined(Self.frame)))
            #expect(reassembler.pendingFrameCount == 0)
        }
    }

    @Test("Fragments of two directions on one handle do not mix")
    func directionsApart() {
        var reassembler = ACLReassembler()
        _ = add(&reassembler, .firstFlushable, Array(Self.frame[..<10]), direction: .controllerToHost)
        _ = add(&reassembler, .firstNonFlushable, Array(Self.frame[..<20]), direction: .hostToController)
        #expect(add(&reassembler, .continuation, Array(Self.frame[10...]), direction: .controllerToHost).frame == .joined(Self.frame))
        #expect(add(&reassembler, .continuation, Array(Self.frame[20...]), direction: .hostToController).frame == .joined(Self.frame))
    }

    @Test("A continuation without a start is malformed")
    func continuationWithoutStart() {
        var reassembler = ACLReassembler()
        let result = add(&reassembler, .continuation, [1, 2, 3])
        #expect(result.frame == nil && result.problems == [DecodeError(.malformed, layer: .l2cap, offset: 100, expected: "")])
        #expect(result.problems.first?.offset == 100)
    }

    @Test("A start while a frame is pending drops the pending one and begins anew")
    func startWhilePending() {
        var reassembler = ACLReassembler()
        _ = add(&reassembler, .firstFlushable, Array(Self.frame[..<10]))
        let restart = add(&reassembler, .firstFlushable, Self.frame)
        #expect(restart.frame == .inFragment && restart.problems.map(\.code) == [.malformed])
        #expect(reassembler.pendingFrameCount == 0)
    }

    @Test("Continuations beyond the L2CAP length are malformed; a start longer than its frame too")
    func overlong() {
        var reassembler = ACLReassembler()
        _ = add(&reassembler, .firstFlushable, Array(Self.frame[..<10]))
        let result = add(&reassembler, .continuation, Array(Self.frame[10...]) + [0xEE])
        #expect(result.frame == nil && result.problems.map(\.code) == [.malformed] && reassembler.pendingFrameCount == 0)
        #expect(add(&reassembler, .firstFlushable, Self.frame + [0]).problems.map(\.code) == [.malformed])
    }

    @Test("Limits: frame length and frames in progress; finish reports what is left as truncated")
    func limits() {
        var reassembler = ACLReassembler(limits: ACLReassemblyLimits(maximumFrameLength: 20, maximumPendingFrames: 1))
        #expect(add(&reassembler, .firstFlushable, Array(Self.frame[..<10])).problems.map(\.code) == [.limitExceeded])
        let small = hex("0c00 0400 1b 1000") + [UInt8](repeating: 7, count: 9)
        #expect(add(&reassembler, .firstFlushable, Array(small[..<2]), handle: 1).problems.isEmpty)
        #expect(add(&reassembler, .firstFlushable, Array(small[..<5]), handle: 2).problems.map(\.code) == [.limitExceeded])
        #expect(reassembler.pendingByteCount == 2)
        // The header completes across fragments: 2 + 3 bytes give the length, then the rest.
        #expect(add(&reassembler, .continuation, Array(small[2..<5]), handle: 1) == ACLReassembler.Result())
        #expect(add(&reassembler, .continuation, Array(small[5...]), handle: 1).frame == .joined(small))
        _ = add(&reassembler, .firstFlushable, Array(small[..<5]), handle: 2)
        #expect(reassembler.finish(offset: 500).map(\.code) == [.truncated])
        #expect(reassembler.pendingFrameCount == 0)
    }
}
