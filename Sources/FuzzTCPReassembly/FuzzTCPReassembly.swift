import FuzzSupport
import Packets
import TCPReassembly

/// Fuzz target: the TCP reassembler, fed a sequence of segments that the input describes.
///
/// Input layout: one byte of settings (bit 0: tight limits; bit 1: segments may be cut by a snap
/// length), then five bytes per segment:
/// - connection (bits 0–1: one of four endpoint pairs; bit 2: sent by the server side),
///   flags (bit 3 SYN, bit 4 FIN, bit 5 RST, bit 6 no ACK) and bit 7: payload that contradicts
///   the other copies of the same sequence numbers;
/// - a signed 16-bit sequence offset from the highest byte the direction has sent so far;
/// - the payload length in units of three bytes;
/// - the time step: milliseconds, or three hours at 0xFF so that idle expiry runs.
/// With bit 1 set, a sixth byte says how many payload bytes the snap length cut off.
///
/// A payload byte is always the low byte of its sequence number, so the stream checks itself:
/// in a delivered stream each byte is one more than the last, and a gap of n bytes advances the
/// count by n. That is the reassembler's central promise — delivered bytes and gaps cover each
/// direction exactly once, in sequence order — and it is checked unless contradicting copies were
/// sent, when either copy may win. The limits must hold throughout, and no callback may concern
/// a connection that was not opened or was already closed.
enum TCPReassemblyHarness: FuzzHarness {
    static let name = "FuzzTCPReassembly"

    static let tightLimits = TCPReassemblyLimits(
        maximumConnections: 3, maximumBufferedBytesPerDirection: 600, maximumBufferedBytes: 1_000,
        maximumOutOfOrderSegmentsPerDirection: 6, idleTimeout: .seconds(10), closedConnectionRetention: .seconds(2))

    static let clients = [
        Endpoint(address: .v4(0x0A4D_0001), port: 49_201),
        Endpoint(address: .v4(0x0A4D_0001), port: 49_202),
    ]
    static let servers = [
        Endpoint(address: .v4(0x0A4D_0002), port: 51_826),
        Endpoint(address: .v6(high: 0xFD77 << 48, low: 2), port: 80),
    ]
    /// Initial sequence numbers per connection and direction; one wraps around 2^32 at once.
    static let initialSequenceNumbers: [UInt32] = [0xFFFF_FF00, 1_000, 0x7FFF_FFF0, 0, 42, 0x8000_0000, 7, 0xFFFF_FFFF]

    static func run(_ bytes: UnsafeRawBufferPointer) {
        var input = FuzzInput(bytes)
        let settings = input.byte()
        let limits = settings & 1 == 1 ? tightLimits : TCPReassemblyLimits()
        let cutsPayloads = settings & 2 == 2

        let checker = StreamChecker()
        let reassembler = TCPReassembler(limits: limits, delegate: checker)
        var sent = [Int](repeating: 0, count: 8)
        var milliseconds: Int64 = 1_700_000_000_000
        var number = 0
        var scratch = [UInt8](repeating: 0, count: 255 * 3)

        while !input.isAtEnd {
            let control = input.byte()
            let pair = Int(control & 3)
            let fromServer = control & 4 != 0
            var flags: TCPFlags = []
            if control & 0x08 != 0 { flags.insert(.syn) }
            if control & 0x10 != 0 { flags.insert(.fin) }
            if control & 0x20 != 0 { flags.insert(.rst) }
            if control & 0x40 == 0 { flags.insert(.ack) }
            let contradicts = control & 0x80 != 0
            let offset = Int(Int16(bitPattern: input.uint16()))
            let length = Int(input.byte()) * 3
            let step = input.byte()
            let missing = cutsPayloads ? Int(input.byte()) : 0

            let client = clients[pair & 1], server = servers[pair >> 1]
            let direction = pair * 2 + (fromServer ? 1 : 0)
            let peer = pair * 2 + (fromServer ? 0 : 1)
            let initial = initialSequenceNumbers[direction]
            // Stream offset 0 follows the SYN, which occupies sequence number `initial`.
            let start = flags.contains(.syn) ? -1 : sent[direction] + offset
            let sequenceNumber = initial &+ 1 &+ UInt32(truncatingIfNeeded: start)
            let firstPayloadSequence = flags.contains(.syn) ? sequenceNumber &+ 1 : sequenceNumber
            sent[direction] = max(sent[direction], start + (flags.contains(.syn) ? 1 : 0) + length + missing)
            let acknowledgment = initialSequenceNumbers[peer] &+ 1 &+ UInt32(truncatingIfNeeded: sent[peer])
            if contradicts { checker.contentIsAmbiguous = true }

            milliseconds += step == 0xFF ? 3 * 3_600_000 : Int64(step)
            let time = Timestamp(seconds: milliseconds / 1_000, nanoseconds: UInt32(milliseconds % 1_000) * 1_000_000)
            number += 1
            for index in 0 ..< length {
                let value = UInt8(truncatingIfNeeded: firstPayloadSequence &+ UInt32(index))
                scratch[index] = contradicts ? ~value : value
            }
            let packet = PacketInfo(number: number, timestamp: time, capturedLength: 54 + length, originalLength: 54 + length + missing)
            scratch.withUnsafeBytes { buffer in
                reassembler.process(TCPSegment(
                    packet: packet, source: fromServer ? server : client, destination: fromServer ? client : server,
                    sequenceNumber: sequenceNumber, acknowledgmentNumber: acknowledgment, flags: flags, window: 65_535,
                    payload: UnsafeRawBufferPointer(rebasing: buffer[..<length]), missingPayloadCount: missing))
            }
            checkLimits(reassembler)
            if step == 0xFE { reassembler.expireIdleConnections(at: time) }
        }
        reassembler.finish()
        checkLimits(reassembler)
        fuzzInvariant(checker.openConnections.isEmpty, "connections \(checker.openConnections) still open after finish")
    }

    private static func checkLimits(_ reassembler: TCPReassembler<StreamChecker>) {
        let statistics = reassembler.statistics
        let limits = reassembler.limits
        fuzzInvariant(statistics.bufferedBytes <= limits.maximumBufferedBytes, "\(statistics.bufferedBytes) bytes buffered")
        fuzzInvariant(statistics.trackedConnections <= limits.maximumConnections, "\(statistics.trackedConnections) connections tracked")
    }
}

/// The delegate that checks every callback against the self-describing payload.
final class StreamChecker: TCPStreamDelegate {
    /// Set once contradicting copies of sequence numbers were sent: the first copy received wins,
    /// so the values seen no longer follow from sequence numbers alone.
    var contentIsAmbiguous = false
    private(set) var openConnections: Set<Int> = []
    private var closedConnections: Set<Int> = []
    /// Per connection id and direction: bytes delivered, bytes skipped, and the value the next
    /// byte must have once one byte was seen.
    private var streams: [Key: Stream] = [:]

    struct Key: Hashable {
        let connection: Int
        let direction: TCPDirection
    }

    struct Stream {
        var delivered = 0
        var skipped: UInt64 = 0
        var nextValue: UInt8?
    }

    func tcpConnectionOpened(_ connection: TCPConnection) {
        fuzzInvariant(!closedConnections.contains(connection.id) && !openConnections.contains(connection.id),
                      "connection \(connection.id) opened twice")
        openConnections.insert(connection.id)
    }

    func tcpStream(_ connection: TCPConnection, direction: TCPDirection, didReceive bytes: UnsafeRawBufferPointer, packet: PacketInfo) {
        fuzzInvariant(openConnections.contains(connection.id), "bytes for connection \(connection.id), which is not open")
        fuzzInvariant(!bytes.isEmpty, "an empty delivery")
        var stream = streams[Key(connection: connection.id, direction: direction), default: Stream()]
        for byte in bytes {
            if let expected = stream.nextValue, !contentIsAmbiguous {
                fuzzInvariant(byte == expected, "connection \(connection.id) \(direction): byte \(byte) at stream offset \(stream.delivered + Int(clamping: stream.skipped)), expected \(expected)")
            }
            stream.nextValue = byte &+ 1
            stream.delivered += 1
        }
        streams[Key(connection: connection.id, direction: direction)] = stream
    }

    func tcpStream(_ connection: TCPConnection, direction: TCPDirection, didSkipGapOf byteCount: UInt64, packet: PacketInfo) {
        fuzzInvariant(openConnections.contains(connection.id), "a gap for connection \(connection.id), which is not open")
        fuzzInvariant(byteCount > 0, "an empty gap")
        var stream = streams[Key(connection: connection.id, direction: direction), default: Stream()]
        stream.nextValue = stream.nextValue.map { $0 &+ UInt8(truncatingIfNeeded: byteCount) }
        stream.skipped += byteCount
        streams[Key(connection: connection.id, direction: direction)] = stream
    }

    func tcpConnectionClosed(_ connection: TCPConnection, reason: TCPCloseReason, packet: PacketInfo?) {
        fuzzInvariant(openConnections.remove(connection.id) != nil, "connection \(connection.id) closed without being open")
        closedConnections.insert(connection.id)
        for direction in [TCPDirection.clientToServer, .serverToClient] {
            let stream = streams.removeValue(forKey: Key(connection: connection.id, direction: direction)) ?? Stream()
            let statistics = connection.statistics(direction)
            fuzzInvariant(statistics.deliveredBytes == stream.delivered,
                          "connection \(connection.id) \(direction) counts \(statistics.deliveredBytes) delivered bytes, \(stream.delivered) were")
            fuzzInvariant(statistics.gapBytes == stream.skipped,
                          "connection \(connection.id) \(direction) counts \(statistics.gapBytes) gap bytes, \(stream.skipped) were skipped")
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTCPReassembly(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    TCPReassemblyHarness.testOneInput(data, count)
}

#if !FUZZING
@main extension TCPReassemblyHarness {}
#endif
