import Bluetooth
import Capture
import HAPCore
import HAPEvents
import Packets
import Testing
import TestSupport
@testable import BLETransport

/// HCI frames of LINKTYPE_BLUETOOTH_HCI_H4_WITH_PHDR built by hand, through `BLETransport`.
@Suite("BLETransport: HCI to connections")
struct BLETransportTests {
    final class Run {
        let recorder = EventRecorder()
        let transport: BLETransport
        let context: AnalysisContext
        var number = 0

        init(limits: (inout AnalysisLimits) -> Void = { _ in }) {
            var configuration = AnalysisConfiguration()
            limits(&configuration.limits)
            let recorder = recorder
            context = AnalysisContext(configuration: configuration) { recorder.consume($0) }
            transport = BLETransport(context: context)
        }

        var recorded: [HAPEvent] { recorder.events }

        /// One frame: the direction word (1 = received from the controller), then the H4 packet.
        func frame(received: Bool, _ h4: [UInt8]) {
            number += 1
            let bytes: [UInt8] = [0, 0, 0, received ? 1 : 0] + h4
            bytes.withUnsafeBytes { transport.process($0, linkType: .h4WithPseudoHeader, packet: .numbered(number)) }
        }

        /// HCI LE Connection Complete (LE Meta 0x3E, subevent 0x01) for `handle`, the host central.
        func connected(_ handle: UInt8, peer: [UInt8]) {
            frame(received: true, [0x04, 0x3E, 19, 0x01, 0x00, handle, 0x00, 0x00, 0x01] + peer + [0x18, 0, 0, 0, 0x48, 0, 0x00])
        }

        func disconnected(_ handle: UInt8) {
            frame(received: true, [0x04, 0x05, 4, 0x00, handle, 0x00, 0x13])
        }

        /// ACL data on the ATT channel, in one fragment.
        func att(_ handle: UInt8, sent: Bool, _ pdu: [UInt8]) {
            let l2cap = [UInt8(pdu.count), 0, 0x04, 0x00] + pdu
            frame(received: !sent, [0x02, handle, 0x20, UInt8(l2cap.count), 0] + l2cap)
        }
    }

    static let accessory: [UInt8] = [0x6F, 0x5E, 0x4D, 0x3C, 0x2B, 0xE1]

    @Test("LE Connection Complete opens a connection to the peer, Disconnection Complete closes it")
    func connectionLifetime() throws {
        let run = Run()
        run.frame(received: false, [0x01, 0x05, 0x20, 6, 0x01, 0, 0, 0, 0x77, 0xC0])  // LE Set Random Address
        run.connected(0x01, peer: Self.accessory)
        run.disconnected(0x01)
        let opened = run.recorded.compactMap { if case .connectionOpened(let value) = $0.kind { value } else { nil } }
        let closed = run.recorded.compactMap { if case .connectionClosed(let value) = $0.kind { value } else { nil } }
        let connection = try #require(opened.first?.connection)
        #expect(connection.transport == .bluetoothLE(connectionHandle: 1))
        #expect(connection.accessory.description == "E1:2B:3C:4D:5E:6F" && connection.controller.description == "C0:77:00:00:00:01")
        #expect(closed.map(\.reason) == [.closed] && closed.first?.connection == connection)
    }

    @Test("ATT on a handle no event opened is a connection begun before the capture; the end of input closes it")
    func joinedMidway() {
        let run = Run()
        run.att(0x02, sent: true, [0x0A, 0x03, 0x00])  // Read Request
        run.transport.finish()
        let opened = run.recorded.compactMap { if case .connectionOpened(let value) = $0.kind { value } else { nil } }
        let closed = run.recorded.compactMap { if case .connectionClosed(let value) = $0.kind { value } else { nil } }
        #expect(opened.map(\.handshakeSeen) == [false])
        #expect(closed.map(\.reason) == [.captureEnded])
    }

    @Test("A frame that breaks its layer is a problem naming the packet and the byte offset; the next one decodes")
    func malformed() {
        let run = Run()
        run.frame(received: true, [0x04, 0x3E, 19, 0x01])
        run.connected(0x01, peer: Self.accessory)
        let problems = run.recorded.compactMap { if case .problem(let value) = $0.kind { value } else { nil } }
        #expect(problems.count == 1 && problems.first?.kind == .undecodableBLE)
        #expect(problems.first?.message.hasPrefix("packet 1: ") == true)
        #expect(problems.first?.message.contains("offset") == true || problems.first?.message.contains("byte") == true)
        #expect(run.recorded.contains { if case .connectionOpened = $0.kind { true } else { false } })
    }

    @Test("Connections beyond ble.connections close the oldest and say so once")
    func connectionLimit() {
        let run = Run { $0.ble.maximumConnections = 2 }
        for handle in UInt8(1) ... 4 { run.connected(handle, peer: Self.accessory) }
        let closed = run.recorded.compactMap { if case .connectionClosed(let value) = $0.kind { value } else { nil } }
        #expect(closed.map(\.reason) == [.evicted, .evicted])
        #expect(run.context.summary.limitsReached[.bleConnections] == 2)
        let problems = run.recorded.compactMap { if case .problem(let value) = $0.kind { value } else { nil } }
        #expect(problems.filter { $0.limit == .bleConnections }.count == 1)
    }

    @Test("Every recorded frame cut short or with a byte changed is analysed without a crash, the damage reported", arguments: [1, 2, 3])
    func damagedFrames(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let reader = try CaptureFileReader(files: [RecordedCapture.path("ble/lamp.pcap")])
        let run = Run()
        var damaged = 0
        while let packet = try reader.next() {
            var bytes = Array(UnsafeRawBufferPointer(packet.bytes))
            switch random.next() % 4 {
            case 0 where bytes.count > 5:
                bytes.removeLast(Int(random.next() % UInt64(bytes.count - 5)) + 1)
                damaged += 1
            case 1 where bytes.count > 5:
                bytes[5 + Int(random.next() % UInt64(bytes.count - 5))] ^= UInt8(truncatingIfNeeded: random.next() | 1)
                damaged += 1
            default:
                break
            }
            bytes.withUnsafeBytes { run.transport.process($0, linkType: .h4WithPseudoHeader, packet: packet.info) }
        }
        run.transport.finish()
        #expect(damaged > 100)
        #expect(run.recorded.contains { if case .problem = $0.kind { true } else { false } })
    }
}
