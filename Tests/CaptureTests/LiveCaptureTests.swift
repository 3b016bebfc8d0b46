import Capture
import Dispatch
import Foundation
import Packets
import Testing
import TestSupport

/// Live capture on the loopback interface, with traffic the tests send to 127.0.0.1. Capturing
/// needs root or CAP_NET_RAW and CAP_NET_ADMIN; without them the tests are cancelled with the
/// reason rather than passing.
@Suite("Live capture on lo", .serialized)
struct LiveCaptureTests {
    /// A port of our own for each test, so that other traffic on lo does not match the filter.
    static func freshPort() -> UInt16 { UInt16.random(in: 40_000 ... 60_000) }

    /// Opens `lo`, or cancels the test saying why it cannot.
    func openLoopback(_ configuration: LiveCapture.Configuration) throws -> LiveCapture {
        do {
            return try LiveCapture(interface: "lo", configuration: configuration)
        } catch {
            switch error {
            case .permissionDenied, .noSuchDevice, .interfaceNotUp:
                try Test.cancel("cannot capture on lo here: \(error)")
            default:
                throw error
            }
        }
    }

    /// Sends `payloads` as UDP datagrams to 127.0.0.1:`port`.
    func sendUDP(_ payloads: [[UInt8]], to port: UInt16) throws {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        try #require(socket >= 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        for payload in payloads {
            let sent = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                    payload.withUnsafeBytes { sendto(socket, $0.baseAddress, $0.count, 0, socketAddress, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }
            }
            try #require(sent == payload.count)
        }
    }

    @Test("Datagrams sent to 127.0.0.1 are captured, decoded, and the packet limit ends the capture")
    func capturesLoopbackTraffic() throws {
        let port = Self.freshPort()
        let capture = try openLoopback(.init(filter: "udp and dst port \(port)", packetLimit: 3, durationLimit: .seconds(10)))
        #expect(capture.linkType == .ethernet)
        let payloads = (1 ... 3).map { Array("hapscope live test \($0)".utf8) }
        try sendUDP(payloads, to: port)

        let decoder = PacketDecoder()
        var received: [[UInt8]] = []
        while let packet = try capture.next() {
            #expect(packet.info.number == received.count + 1)
            guard case .udp(let datagram) = try decoder.decode(linkType: packet.linkType, packet: packet.bytes, info: packet.info) else {
                Issue.record("packet \(packet.info.number) is not UDP")
                continue
            }
            #expect(datagram.destination.port == port)
            #expect(datagram.destination.address == IPAddress("127.0.0.1"))
            received.append(Array(datagram.payload))
        }
        #expect(received == payloads)
        #expect(capture.endReason == .packetLimitReached)
        #expect(try capture.next() == nil)
        #expect(try capture.statistics().received >= 3)
    }

    @Test("Without matching traffic the duration limit ends the capture")
    func durationLimit() throws {
        let capture = try openLoopback(.init(
            bufferTimeout: .milliseconds(20), filter: "udp and dst port \(Self.freshPort())", durationLimit: .milliseconds(200)))
        #expect(try capture.next() == nil)
        #expect(capture.endReason == .durationLimitReached)
    }

    @Test("A stop from another thread ends a capture blocked waiting for packets")
    func stopFromAnotherThread() throws {
        let capture = try openLoopback(.init(filter: "udp and dst port \(Self.freshPort())", durationLimit: .seconds(20)))
        let stopper = capture.stopper
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(200)) { stopper.stop() }
        #expect(try capture.next() == nil)
        #expect(capture.endReason == .stopped)
    }

    @Test("A stop before reading ends the capture at once")
    func stopBeforeReading() throws {
        let capture = try openLoopback(.init(filter: "udp and dst port \(Self.freshPort())", durationLimit: .seconds(20)))
        capture.stopper.stop()
        #expect(try capture.next() == nil)
        #expect(capture.endReason == .stopped)
    }

    @Test("An interface that does not exist is reported as such")
    func noSuchInterface() throws {
        do {
            _ = try LiveCapture(interface: "hapscope-none0")
            Issue.record("opened a nonexistent interface")
        } catch {
            switch error {
            case .noSuchDevice(let interface, _):
                #expect(interface == "hapscope-none0")
            case .permissionDenied:
                try Test.cancel("libpcap reports permission before existence here: \(error)")
            default:
                Issue.record("expected no such device, got \(error)")
            }
        }
    }

    @Test("A filter that does not compile on lo is an invalid-filter error")
    func invalidFilter() throws {
        do {
            _ = try openLoopback(.init(filter: "udp and and"))
            Issue.record("the filter compiled")
        } catch let error as CaptureError {
            guard case .invalidFilter = error else {
                Issue.record("expected an invalid-filter error, got \(error)")
                return
            }
        }
    }
}

@Suite("Capture error messages")
struct CaptureErrorTests {
    @Test("Permission errors tell the user what to do")
    func permissionMessage() {
        let error = CaptureError.permissionDenied(interface: "eth0", reason: "socket: Operation not permitted")
        #expect(error.description.hasPrefix("permission denied: run as root or grant CAP_NET_RAW and CAP_NET_ADMIN"))
    }

    @Test("Standard input is named in words")
    func standardInputName() {
        #expect(CaptureError.damagedFile(file: "-", offset: nil, packetsRead: 1, reason: "truncated dump file").description
            == "standard input: damaged after 1 packet: truncated dump file")
    }
}
