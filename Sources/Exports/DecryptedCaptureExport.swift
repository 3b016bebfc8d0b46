import Capture
import HAPEvents
import Packets

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
///
/// A consumer of the pipeline like any other: it sees each packet (`CapturedPacketObserver`) and
/// the events its analysis produced (`sessionStarted` with the TCP position of the first frames,
/// `decryptedData`, `connectionClosed`); the analysis must be configured to emit decrypted data.
public final class DecryptedCaptureExport: HAPEventConsumer, CapturedPacketObserver {
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
    /// Decodes each packet again to see its TCP segment as the analysis saw it.
    private let decoder = PacketDecoder()

    /// Writes to `file` (`-` for standard output) with `linkType`, the link type of the input.
    public init(file: String, linkType: LinkType) throws(CaptureError) {
        writer = try PcapWriter(file: file, linkType: linkType)
        self.linkType = linkType
    }

    // MARK: Per packet

    public func packetBegan(_ packet: CapturedPacket) {
        current = packet
        currentSegment = nil
        suppressCurrent = false
        if case .tcp(let segment)? = try? decoder.decode(linkType: packet.linkType, packet: packet.bytes, info: packet.info) {
            observe(segment)
        }
    }

    /// A TCP segment of the current packet, seen before the analysis.
    private func observe(_ segment: TCPSegment) {
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

    public func packetEnded() {
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

    // MARK: Events

    public func consume(_ event: HAPEvent) {
        switch event.kind {
        case .sessionStarted(let start): sessionStarted(start)
        case .decryptedData(let data): data.plaintext.withUnsafeBytes { plaintext($0, connection: data.connection, direction: data.direction) }
        case .connectionClosed(let summary): connectionClosed(summary.connection)
        default: break
        }
    }

    /// The two directions of a HAP-over-IP connection, as flows.
    private static func flows(of connection: ConnectionInfo) -> (forward: FlowKey, backward: FlowKey)? {
        guard case .ip = connection.transport, let controller = connection.controller.endpoint,
              let accessory = connection.accessory.endpoint else { return nil }
        return (FlowKey(source: controller, destination: accessory), FlowKey(source: accessory, destination: controller))
    }

    /// Both directions of a connection switched to frames that can be decrypted: from now on its
    /// packets are rewritten, continuing the sequence numbers where the frames begin.
    private func sessionStarted(_ start: SessionStartEvent) {
        guard start.decryptable.count == 2, let (forward, backward) = Self.flows(of: start.connection),
              let controllerStart = start.tcpFrameStart?[.controllerToAccessory],
              let accessoryStart = start.tcpFrameStart?[.accessoryToController] else { return }
        let id = start.connection.id
        flows[forward] = Flow(connectionID: id, reverse: backward, nextSequence: controllerStart, template: template(for: forward))
        flows[backward] = Flow(connectionID: id, reverse: forward, nextSequence: accessoryStart, template: template(for: backward))
    }

    /// Plaintext recovered from one direction of a rewritten session.
    private func plaintext(_ bytes: UnsafeRawBufferPointer, connection: ConnectionInfo, direction: HAPDirection) {
        guard let (forward, backward) = Self.flows(of: connection) else { return }
        let key = direction == .controllerToAccessory ? forward : backward
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

    private func connectionClosed(_ connection: ConnectionInfo) {
        guard let (key, _) = Self.flows(of: connection), let flow = flows[key], flow.connectionID == connection.id else { return }
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
