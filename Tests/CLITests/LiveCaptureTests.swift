import HAPCore
import HAPEvents
import TestSupport
import Foundation
import HAPJSON
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `hapscope live` on the loopback interface, with HAP-like traffic made during the test.
@Suite("Live capture", .serialized)
struct LiveCaptureTests {
    /// Bytes a process writes to one of its pipes, collected as they arrive.
    final class PipeCollector: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()

        init(_ pipe: Pipe) {
            pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let chunk = handle.availableData
                guard let self else { return }
                self.lock.lock()
                self.data.append(chunk)
                self.lock.unlock()
            }
        }

        var text: String {
            lock.lock()
            defer { lock.unlock() }
            return String(decoding: data, as: UTF8.self)
        }

        /// Waits until the text satisfies `condition`, for at most `seconds`.
        func wait(seconds: Double, until condition: (String) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if condition(text) { return true }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return condition(text)
        }
    }

    /// `hapscope live` running in the background.
    struct LiveProcess {
        let process: Process
        let output: PipeCollector
        let errors: PipeCollector

        init(_ arguments: [String]) throws {
            process = Process()
            process.executableURL = HapscopeBinary.url
            process.arguments = arguments
            let stdout = Pipe(), stderr = Pipe()
            process.standardOutput = stdout
            process.standardError = stderr
            output = PipeCollector(stdout)
            errors = PipeCollector(stderr)
            try process.run()
        }

        /// Waits until the capture is running; cancels the test when this machine may not capture.
        func waitUntilListening() throws {
            let started = errors.wait(seconds: 20) { $0.contains("listening on") || $0.contains("hapscope: ") && !$0.contains("listening") }
            if errors.text.contains("permission denied") {
                process.waitUntilExit()
                try Test.cancel("live capture needs root or CAP_NET_RAW here: \(errors.text)")
            }
            try #require(started && errors.text.contains("listening on lo"), "hapscope did not start capturing: \(errors.text)")
        }

        func waitForExit(seconds: Double) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            return !process.isRunning
        }
    }

    /// A HAP-like pair-verify M1/M2 exchange over a real TCP connection on 127.0.0.1: what a
    /// controller and an accessory send first. Returns the accessory's port.
    static func exchangePairVerify(port: UInt16, listener: Int32) throws {
        let publicKey = [UInt8](repeating: 0x42, count: 32)
        // HAP: Pair Verify M1 — State 1, the controller's ephemeral public key.
        let m1: [UInt8] = [0x06, 0x01, 0x01, 0x03, 0x20] + publicKey
        // HAP: Pair Verify M2 — State 2, the accessory's key and an (opaque here) EncryptedData.
        let m2: [UInt8] = [0x06, 0x01, 0x02, 0x03, 0x20] + publicKey.reversed() + [0x05, 0x65] + [UInt8](repeating: 0x5A, count: 101)
        let request = Array("POST /pair-verify HTTP/1.1\r\nHost: accessory.local\r\nContent-Type: application/pairing+tlv8\r\nContent-Length: \(m1.count)\r\n\r\n".utf8) + m1
        let response = Array("HTTP/1.1 200 OK\r\nContent-Type: application/pairing+tlv8\r\nContent-Length: \(m2.count)\r\n\r\n".utf8) + m2

        let accessory = Thread {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 4096)
            var received = 0
            while received < request.count {
                let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress! + received, $0.count - received, 0) }
                guard count > 0 else { break }
                received += count
            }
            _ = response.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, 0) }
            close(connection)
        }
        accessory.start()

        let controller = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(controller >= 0)
        defer { close(controller) }
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: port.bigEndian,
                                  sin_addr: in_addr(s_addr: UInt32(0x7F00_0001).bigEndian), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(controller, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0, "connect: \(String(cString: strerror(errno)))")
        _ = request.withUnsafeBytes { send(controller, $0.baseAddress, $0.count, 0) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var received = 0
        while received < response.count {
            let count = buffer.withUnsafeMutableBytes { recv(controller, $0.baseAddress! + received, $0.count - received, 0) }
            guard count > 0 else { break }
            received += count
        }
        #expect(received == response.count)
    }

    /// A listening socket on 127.0.0.1 and the port the kernel chose.
    static func listen() throws -> (socket: Int32, port: UInt16) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(listener >= 0)
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: 0,
                                  sin_addr: in_addr(s_addr: UInt32(0x7F00_0001).bigEndian), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                Glibc.bind(listener, pointer, length) == 0 && Glibc.listen(listener, 4) == 0 && getsockname(listener, pointer, &length) == 0
            }
        }
        try #require(bound)
        return (listener, UInt16(bigEndian: address.sin_port))
    }

    @Test("live prints the events of HAP traffic as it happens and stops cleanly on Ctrl-C")
    func loopbackUntilInterrupted() throws {
        let (listener, port) = try Self.listen()
        defer { close(listener) }
        let live = try LiveProcess(["live", "-i", "lo", "-f", "tcp port \(port)", "--format", "ndjson"])
        try live.waitUntilListening()

        try Self.exchangePairVerify(port: port, listener: listener)
        let closed = live.output.wait(seconds: 20) { $0.contains("\"type\":\"connection-closed\"") }
        #expect(closed, "the events of the exchange arrive while the capture runs: \(live.output.text)")
        #expect(live.process.isRunning, "nothing but Ctrl-C ends this capture")

        live.process.interrupt()
        #expect(live.waitForExit(seconds: 20))
        #expect(live.process.terminationStatus == 0)
        #expect(live.errors.text.contains("packets captured"))
        #expect(live.errors.text.contains("; stopped"))

        let events = try live.output.text.split(separator: "\n").map { try JSONDocument(bytes: Array($0.utf8)).root }
        let types = events.compactMap { $0["type"]?.stringValue }
        #expect(types.first == "header")
        #expect(events.first?["command"]?.stringValue == "live")
        #expect(events.contains { $0["type"]?.stringValue == "input-opened" && $0["name"]?.stringValue == "lo" })
        #expect(types.contains("connection-opened"))
        let request = try #require(events.first { $0["type"]?.stringValue == "http-message" && $0["kind"]?.stringValue == "request" })
        #expect(request["target"]?.stringValue == "/pair-verify")
        #expect(request["accessory"]?.stringValue == "127.0.0.1:\(port)")
        #expect(events.filter { $0["type"]?.stringValue == "pairing-message" }.compactMap { $0["state"]?.stringValue } == ["M1", "M2"])
        #expect(types.last == "input-ended", "the capture is finished and summed up after Ctrl-C")
    }

    @Test("--count ends the capture after that many packets, in text with one line per event")
    func packetCount() throws {
        let (listener, port) = try Self.listen()
        defer { close(listener) }
        let live = try LiveProcess(["live", "-i", "lo", "-f", "tcp port \(port)", "--count", "4"])
        try live.waitUntilListening()
        try Self.exchangePairVerify(port: port, listener: listener)
        #expect(live.waitForExit(seconds: 20))
        #expect(live.process.terminationStatus == 0)
        #expect(live.errors.text.contains("4 packets captured"))
        #expect(live.errors.text.contains("the packet count was reached"))
        #expect(live.output.text.contains("conn #1     opened 127.0.0.1:"))
        #expect(live.output.text.contains("http #1     → POST /pair-verify HTTP/1.1 (37-byte body)"))
    }

    @Test("every analysing command captures live with -i: http lists the messages, --duration ends it")
    func httpLive() throws {
        let (listener, port) = try Self.listen()
        defer { close(listener) }
        let live = try LiveProcess(["http", "-i", "lo", "-f", "tcp port \(port)", "--duration", "2"])
        try live.waitUntilListening()
        try Self.exchangePairVerify(port: port, listener: listener)
        #expect(live.output.wait(seconds: 20) { $0.contains("POST /pair-verify HTTP/1.1") }, "streamed before the capture ends")
        #expect(live.waitForExit(seconds: 20))
        #expect(live.process.terminationStatus == 0)
        #expect(live.errors.text.contains("the duration was reached"))
        #expect(live.output.text.contains("#1 ←        HTTP/1.1 200 OK  140 bytes application/pairing+tlv8"))
        #expect(live.output.text.contains("2 HTTP messages"))
    }
}
