import HAPEvents
import HTTP1
import Packets
import WireParsing

/// Receives what an `HTTPChannel` parses.
protocol HTTPChannelReceiver: AnyObject {
    /// A message, with the packets that carried its first and last byte (handed on rather than
    /// asked for: each question was a checked access to the channel's marks).
    func channel(_ channel: HTTPChannel, parsed message: HTTPMessage, firstPacket: PacketInfo, lastPacket: PacketInfo)
    func channel(_ channel: HTTPChannel, discarded bytes: HTTPDiscardedBytes, packet: PacketInfo)
    /// The parser stopped at an error; it has been resumed past it.
    func channel(_ channel: HTTPChannel, failed error: DecodeError, packet: PacketInfo)
}

/// One direction of a HAP connection's HTTP — the plaintext before the session is encrypted,
/// the plaintext inside the frames after — with the packet that carried each stretch of the
/// stream, and the recovery from errors the parser documents (report, then resume).
///
/// A class, so that the frame decryptor feeding it and the connection holding it use one value.
final class HTTPChannel {
    let direction: HAPDirection
    private var parser: HTTPStreamParser
    private let limits: HTTPLimits
    /// Packets of the parser's stream, by stream offset, and where the message in progress
    /// begins.
    private var marks = StreamPacketMap()
    /// Set while a stray plaintext message is parsed in a direction that should be encrypted.
    private(set) var isParsingStrayPlaintext = false
    private var isRunning = false
    /// Set when the session switched to frames while a piece was being parsed: the rest of that
    /// piece is frames, so nothing more parsed from it is delivered, and the parser is replaced
    /// once it returns.
    private var restartedWhileRunning = false

    init(_ direction: HAPDirection, limits: HTTPLimits) {
        self.direction = direction
        self.limits = limits
        self.parser = HTTPStreamParser(limits: limits)
    }

    /// Bytes of the stream fed so far.
    var streamOffset: Int { parser.streamOffset }

    /// The next bytes of the stream, which arrived in `packet`.
    func feed(_ bytes: UnsafeRawBufferPointer, packet: PacketInfo, to receiver: some HTTPChannelReceiver) {
        run(packet, receiver) { (parser, handle) throws(DecodeError) in
            // Marked inside the run, where the parser's offset is read without an access of its own.
            marks.mark(parser.streamOffset, packet)
            try parser.feed(bytes, handle)
        }
    }

    /// `byteCount` bytes of the stream are missing from the capture.
    func skip(_ byteCount: UInt64, packet: PacketInfo, to receiver: some HTTPChannelReceiver) {
        run(packet, receiver) { (parser, handle) throws(DecodeError) in try parser.skip(byteCount: byteCount, handle) }
    }

    /// The stream ended: what the parser holds is delivered or reported.
    func finish(packet: PacketInfo, to receiver: some HTTPChannelReceiver) {
        run(packet, receiver) { (parser, handle) throws(DecodeError) in try parser.finish(handle) }
    }

    /// The session switched to encrypted frames: a new stream begins, the frames' plaintext.
    /// Called while a piece is being parsed (the message that completed pair-verify was in it),
    /// the rest of that piece is left unparsed: the caller feeds it to the frames.
    func restartForEncryptedFrames() {
        marks = StreamPacketMap()
        if isRunning {
            restartedWhileRunning = true
        } else {
            parser = HTTPStreamParser(limits: limits)
        }
    }

    /// Plaintext HTTP found where frames were due, parsed as a stream of its own so that the
    /// stream of the frames is not disturbed.
    func parseStrayPlaintext(_ bytes: UnsafeRawBufferPointer, packet: PacketInfo, to receiver: some HTTPChannelReceiver) {
        var frameParser = HTTPStreamParser(limits: limits)
        swap(&frameParser, &parser)
        let frameMarks = marks
        marks = StreamPacketMap()
        marks.mark(0, packet)
        isParsingStrayPlaintext = true
        run(packet, receiver) { (parser, handle) throws(DecodeError) in
            try parser.feed(bytes, handle)
            try parser.finish(handle)
        }
        isParsingStrayPlaintext = false
        parser = frameParser
        marks = frameMarks
    }

    /// Runs one parser operation, handing its messages and discards on, and recovering from an
    /// error as the parser documents.
    private func run(
        _ packet: PacketInfo, _ receiver: some HTTPChannelReceiver,
        _ operation: (inout HTTPStreamParser, (HTTPStreamEvent) -> Void) throws(DecodeError) -> Void
    ) {
        // The parser runs in place: moving it out and back cost six copies of the structure per
        // piece. Nothing the receiver does while it runs reaches the parser; a restart waits.
        isRunning = true
        defer {
            isRunning = false
            // A restart during the run: the one that ran is done with, the frames' stream begins.
            if restartedWhileRunning {
                restartedWhileRunning = false
                parser = HTTPStreamParser(limits: limits)
            }
        }
        // A local function, not a stored closure, so that passing it costs no allocation.
        func handle(_ event: HTTPStreamEvent) {
            guard !restartedWhileRunning else { return }
            switch event {
            case .message(let message):
                let (first, last) = marks.deliver(message.streamRange)
                receiver.channel(self, parsed: message, firstPacket: first ?? packet, lastPacket: last ?? packet)
            case .discarded(let discarded):
                marks.settle(before: discarded.range.upperBound)
                receiver.channel(self, discarded: discarded, packet: packet)
            }
        }
        do {
            try operation(&parser, handle)
        } catch {
            receiver.channel(self, failed: error, packet: packet)
            // Each resume parses held bytes onward, so this ends; the bound guards against a parser bug.
            for _ in 0..<1024 {
                do {
                    try parser.resume(handle)
                    break
                } catch {
                    receiver.channel(self, failed: error, packet: packet)
                }
            }
        }
    }
}
