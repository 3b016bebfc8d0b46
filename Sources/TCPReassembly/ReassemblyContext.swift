import Packets

/// What the reassembler's connections share with one another and with its public API: the
/// statistics, the budget of buffered bytes and the known server ports. An object apart from
/// the per-segment state, so that a delegate may read it in the middle of a callback.
final class ReassemblyContext {
    var statistics = TCPReassemblyStatistics()
    var serverPorts: Set<UInt16> = []
    let maximumBufferedBytes: Int

    init(maximumBufferedBytes: Int) {
        self.maximumBufferedBytes = maximumBufferedBytes
    }
}

/// Where every connection's streams go: the delegate and the shared context.
///
/// It lives in `ReassemblyCore`, which `TCPReassembler` keeps alive, and the reassembler keeps
/// the delegate alive around every call that processes segments; so it holds them without
/// reference counting, which would otherwise cost atomic operations on every segment.
struct StreamTarget {
    unowned(unsafe) let delegate: any TCPStreamDelegate
    unowned(unsafe) let context: ReassemblyContext
    let bufferLimits: StreamBufferLimits

    func output(_ connection: TCPConnection, _ direction: TCPDirection) -> DirectionOutput {
        DirectionOutput(target: self, connection: Unmanaged.passUnretained(connection), direction: direction)
    }
}

/// Connects one direction of one connection to the delegate and to the shared context.
///
/// It exists only during a call that processes a segment, while the connection's entry holds
/// the connection, so it holds the connection unretained. It is not generic: the stream code
/// it is passed to is specialised once, inside this module, and the delegate is called
/// through its protocol.
struct DirectionOutput: StreamAssemblerOutput {
    let target: StreamTarget
    let connection: Unmanaged<TCPConnection>
    let direction: TCPDirection

    var bufferLimits: StreamBufferLimits { target.bufferLimits }

    func deliver(_ bytes: UnsafeRawBufferPointer, packet: PacketInfo) {
        connection._withUnsafeGuaranteedRef {
            target.delegate.tcpStream($0, direction: direction, didReceive: bytes, packet: packet)
        }
    }

    func skipGap(of byteCount: UInt64, packet: PacketInfo) {
        connection._withUnsafeGuaranteedRef {
            target.delegate.tcpStream($0, direction: direction, didSkipGapOf: byteCount, packet: packet)
        }
    }

    func canBuffer(_ byteCount: Int) -> Bool {
        target.context.statistics.bufferedBytes + byteCount <= target.context.maximumBufferedBytes
    }

    func didBuffer(_ byteCount: Int) {
        let context = target.context
        context.statistics.bufferedBytes += byteCount
        context.statistics.peakBufferedBytes = max(context.statistics.peakBufferedBytes, context.statistics.bufferedBytes)
    }

    func didRelease(_ byteCount: Int) {
        target.context.statistics.bufferedBytes -= byteCount
    }

    func didReach(_ limit: StreamBufferLimit) {
        switch limit {
        case .bytesPerDirection: target.context.statistics.bufferedBytesPerDirectionLimitHits += 1
        case .bytesInTotal: target.context.statistics.bufferedBytesLimitHits += 1
        case .rangesPerDirection: target.context.statistics.outOfOrderSegmentsLimitHits += 1
        }
    }
}
