import Capture
import Packets
import TCPReassembly

/// Writes a copy of the capture in which every decrypted session carries its plaintext HTTP as
/// ordinary TCP on the same endpoints, so Wireshark's and tshark's HTTP dissectors show it.
///
/// Packets are copied as they were, except the packets of a session after it switched to
/// encrypted frames (when both directions could be decrypted): those are replaced by new packets,
/// each carrying the plaintext of the frames that the original packet completed, at that packet's
/// time. Sequence numbers continue from where the plaintext part of the connection left off, so
/// the handshake and the pairing messages stay byte for byte what was captured; acknowledgment
/// numbers follow the rewritten streams; lengths and checksums are recomputed. A session only one
/// of whose directions could be decrypted is copied unchanged.
public final class DecryptedCaptureExport {
    private let writer: PcapWriter
    /// The link type written; packets of another link type (from a second input file) are skipped.
    public let linkType: LinkType
    public private(set) var packetsWritten = 0
    public private(set) var packetsReplaced = 0
    public private(set) var packetsSkipped = 0

    /// One direction of a rewritten session.
    private struct Flow {
        let connectionID: Int
        let reverse: FlowKey
        var nextSequence: UInt32
        var template: TCPFrameTemplate?
    }

    private struct FlowKey: Hashable {
        let source: Endpoint
        let destination: Endpoint
    }

    private var flows: [FlowKey: Flow] = [:]
    /// Flows of closed connections, oldest first: kept a while for the last ACKs, dropped when
    /// more than `closedFlowRetention` connections have closed since, or when a SYN reuses the ports.
    private var closedFlows: [FlowKey] = []
    private static let closedFlowRetention = 1024
    private var current: CapturedPacket?
    private var currentSegment: (key: FlowKey, layout: TCPSegment.FrameLayout?)?
    private var suppressCurrent = false
    private var pending: [[UInt8]] = []

    /// Writes to `file` (`-` for standard output) with `linkType`, the link type of the input.
    public init(file: String, linkType: LinkType) throws(CaptureError) {
        writer = try PcapWriter(file: file, linkType: linkType)
        self.linkType = linkType
    }

    // MARK: Called by the analyzer, per packet

    func begin(_ packet: CapturedPacket) {
        current = packet
        currentSegment = nil
        suppressCurrent = false
    }

    /// A TCP segment of the current packet, seen before reassembly.
    func observe(_ segment: TCPSegment) {
        let key = FlowKey(source: segment.source, destination: segment.destination)
        currentSegment = (key, segment.frameLayout)
        if segment.flags.contains(.syn), let flow = flows[key] {
            flows.removeValue(forKey: key)
            flows.removeValue(forKey: flow.reverse)
        }
        guard var flow = flows[key], let packet = current else { return }
        suppressCurrent = true
        if let layout = segment.frameLayout, let template = TCPFrameTemplate(frame: packet.bytes, layout: layout) {
            flow.template = template
            flows[key] = flow
        }
        if !segment.flags.isDisjoint(with: [.fin, .rst]) {
            emit(on: key, flags: segment.flags.intersection([.fin, .rst, .ack]), payload: UnsafeRawBufferPointer(start: nil, count: 0))
            if segment.flags.contains(.fin) { flows[key]?.nextSequence &+= 1 }
        }
    }

    func end() {
        guard let packet = current else { return }
        if packet.linkType != linkType {
            packetsSkipped += 1
        } else if suppressCurrent {
            packetsReplaced += 1
        } else {
            writer.write(packet.bytes, timestamp: packet.info.timestamp, originalLength: packet.info.originalLength)
            packetsWritten += 1
        }
        for frame in pending {
            frame.withUnsafeBytes { writer.write($0, timestamp: packet.info.timestamp) }
            packetsWritten += 1
        }
        pending.removeAll(keepingCapacity: true)
        current = nil
    }

    public func close() throws(CaptureError) {
        try writer.close()
    }

    // MARK: Called by HAP connections

    /// Both directions of `connection` switched to frames that can be decrypted: from now on its
    /// packets are rewritten. `switchOffsets` are the stream offsets where each direction's frames begin.
    func sessionStarted(_ connection: TCPConnection, switchOffsets: [TCPDirection: Int]) {
        guard let clientOrigin = connection.streamOrigin(.clientToServer), let serverOrigin = connection.streamOrigin(.serverToClient),
              let clientOffset = switchOffsets[.clientToServer], let serverOffset = switchOffsets[.serverToClient]
        else { return }
        let forward = FlowKey(source: connection.client, destination: connection.server)
        let backward = FlowKey(source: connection.server, destination: connection.client)
        flows[forward] = Flow(connectionID: connection.id, reverse: backward,
                              nextSequence: clientOrigin &+ UInt32(truncatingIfNeeded: clientOffset), template: template(for: forward))
        flows[backward] = Flow(connectionID: connection.id, reverse: forward,
                               nextSequence: serverOrigin &+ UInt32(truncatingIfNeeded: serverOffset), template: template(for: backward))
    }

    /// Plaintext recovered from one direction of a rewritten session.
    func plaintext(_ bytes: UnsafeRawBufferPointer, connection: TCPConnection, direction: TCPDirection) {
        let key = direction == .clientToServer
            ? FlowKey(source: connection.client, destination: connection.server)
            : FlowKey(source: connection.server, destination: connection.client)
        guard flows[key] != nil else { return }
        // Keep each new packet within a common MTU, whatever the frame length.
        var start = 0
        while start < bytes.count {
            let end = min(start + 1400, bytes.count)
            emit(on: key, flags: [.psh, .ack], payload: UnsafeRawBufferPointer(rebasing: bytes[start ..< end]))
            flows[key]?.nextSequence &+= UInt32(end - start)
            start = end
        }
    }

    func connectionClosed(_ connection: TCPConnection) {
        let key = FlowKey(source: connection.client, destination: connection.server)
        guard let flow = flows[key], flow.connectionID == connection.id else { return }
        closedFlows.append(key)
        if closedFlows.count > Self.closedFlowRetention {
            let oldest = closedFlows.removeFirst()
            if let expired = flows.removeValue(forKey: oldest) { flows.removeValue(forKey: expired.reverse) }
        }
    }

    // MARK: Building packets

    private func template(for key: FlowKey) -> TCPFrameTemplate? {
        guard let segment = currentSegment, segment.key == key, let layout = segment.layout, let packet = current else { return nil }
        return TCPFrameTemplate(frame: packet.bytes, layout: layout)
    }

    private func emit(on key: FlowKey, flags: TCPFlags, payload: UnsafeRawBufferPointer) {
        guard let flow = flows[key], let template = flow.template else { return }
        let acknowledgment = flows[flow.reverse]?.nextSequence ?? 0
        pending.append(template.frame(sequenceNumber: flow.nextSequence, acknowledgmentNumber: acknowledgment, flags: flags, payload: payload))
    }
}
