import CoAP
import FuzzSupport
import WireParsing

/// Fuzz target: CoAP messages and block-wise assembly.
///
/// Input: datagrams, each a 2-byte little-endian length and that many bytes (the last takes
/// what remains). Each is decoded as a message; messages with a Block2 or Block1 option feed a
/// `BlockwiseAssembler` keyed by the option number and the token's low byte. Besides not
/// crashing, the codec must keep these promises:
/// - a message that decodes encodes back to exactly its datagram (the wire form is canonical);
/// - errors lie inside the datagram;
/// - a completed block-wise body is never above its limit, and transfers in progress stay
///   within theirs; `finish` reports only truncations.
enum CoAPHarness: FuzzHarness {
    static let name = "FuzzCoAP"

    static let limits = BlockwiseLimits(maximumBodyLength: 4096, maximumPendingTransfers: 3)

    static func run(_ input: UnsafeRawBufferPointer) {
        var script = FuzzInput(input)
        var assembler = BlockwiseAssembler<[UInt8]>(limits: limits)
        var offset = 0
        while !script.isAtEnd {
            let declared = Int(script.uint16())
            let datagram = script.bytes(upTo: declared == 0 ? script.remainingCount : declared)
            offset += 2
            var cursor = ByteCursor(RawSpan(_unsafeBytes: datagram), layer: .coap, baseOffset: offset)
            do {
                let message = try CoAPMessage(parsing: &cursor)
                fuzzInvariant(message.encoded == Array(datagram), "a message does not encode back to its datagram")
                _ = message.code.description
                _ = message.uriPath
                for option in message.options {
                    _ = option.number.description
                    _ = option.violatesRegisteredLength
                    _ = option.unsignedValue
                }
                assemble(message, into: &assembler, offset: offset)
            } catch {
                fuzzCheck(error, within: offset ... offset + datagram.count)
            }
            offset += datagram.count
        }
        for problem in assembler.finish(offset: offset) {
            fuzzInvariant(problem.code == .truncated, "finish reported \(problem)")
        }
    }

    static func assemble(_ message: CoAPMessage, into assembler: inout BlockwiseAssembler<[UInt8]>, offset: Int) {
        for number in [CoAPOptionNumber.block2, .block1] {
            guard let option = message.firstOption(number) else { continue }
            guard let block = try? CoAPBlockOption(option: option) else { continue }
            let key = [UInt8(number.rawValue), message.token.bytes.last ?? 0]
            if case .complete(let body) = assembler.add(block, payload: message.payload, key: key, offset: offset) {
                fuzzInvariant(body.count <= limits.maximumBodyLength, "a block-wise body above the limit")
            }
            fuzzInvariant(assembler.pendingTransferCount <= limits.maximumPendingTransfers, "more transfers than the limit")
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCoAP(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    CoAPHarness.testOneInput(data, count)
}

#if !FUZZING
@main extension CoAPHarness {}
#endif
