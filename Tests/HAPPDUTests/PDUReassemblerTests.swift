import Testing
import WireParsing
@testable import HAPPDU

@Suite("HAP PDU reassembly")
struct PDUReassemblerTests {
    static let whole = hex("02 07 00 0a00 01 08 0001020304050607")

    func fragment(_ bytes: String) -> HAPPDU {
        pdu(hex(bytes)).value!
    }

    @Test("A whole PDU passes through; fragments join by TID into the PDU they split")
    func joins() {
        var reassembler = PDUReassembler()
        #expect(reassembler.add(pdu(Self.whole).value!, offset: 0).pdu == pdu(Self.whole).value!)
        #expect(reassembler.add(fragment("02 07 00 0a00 01 08 0001"), offset: 0) == PDUReassembler.Result())
        #expect(reassembler.add(fragment("82 07 020304"), offset: 10) == PDUReassembler.Result())
        #expect(reassembler.add(fragment("82 07 050607"), offset: 20).pdu == pdu(Self.whole).value!)
        #expect(reassembler.pendingPDUCount == 0)
    }

    @Test("A request and a response with one TID are reassembled apart")
    func typesApart() {
        var reassembler = PDUReassembler()
        _ = reassembler.add(fragment("00 02 07 1200 0400 0102"), offset: 0)
        _ = reassembler.add(fragment("02 07 00 0400 0a0b"), offset: 0)
        #expect(reassembler.add(fragment("80 07 0304"), offset: 0).pdu == pdu(hex("00 02 07 1200 0400 01020304")).value!)
        #expect(reassembler.add(fragment("82 07 0c0d"), offset: 0).pdu == pdu(hex("02 07 00 0400 0a0b0c0d")).value!)
    }

    @Test("A continuation with nothing pending, or one past the body length, is malformed")
    func malformed() {
        var reassembler = PDUReassembler()
        #expect(reassembler.add(fragment("82 07 0102"), offset: 30).problems == [DecodeError(.malformed, layer: .hapPDU, offset: 30, expected: "")])
        _ = reassembler.add(fragment("02 07 00 0300 01"), offset: 0)
        #expect(reassembler.add(fragment("82 07 020304"), offset: 40).problems.map(\.code) == [.malformed])
        #expect(reassembler.pendingPDUCount == 0)
    }

    @Test("A new first fragment for a pending TID replaces it, with a problem")
    func restart() {
        var reassembler = PDUReassembler()
        _ = reassembler.add(fragment("02 07 00 0300 01"), offset: 0)
        let result = reassembler.add(pdu(Self.whole).value!, offset: 5)
        #expect(result.pdu != nil && result.problems.map(\.code) == [.malformed])
    }

    @Test("Limits on body length and PDUs in progress; finish reports the rest as truncated")
    func limits() {
        var reassembler = PDUReassembler(limits: PDUReassemblyLimits(maximumBodyLength: 4, maximumPendingPDUs: 1))
        #expect(reassembler.add(fragment("02 07 00 0a00 01"), offset: 0).problems.map(\.code) == [.limitExceeded])
        #expect(reassembler.add(fragment("02 01 00 0300 01"), offset: 0).problems.isEmpty)
        #expect(reassembler.add(fragment("02 02 00 0300 01"), offset: 0).problems.map(\.code) == [.limitExceeded])
        #expect(reassembler.finish(offset: 99).map(\.code) == [.truncated])
        #expect(reassembler.pendingPDUCount == 0)
    }
}
