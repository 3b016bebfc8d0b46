import HAPCrypto
import HAPEvents
import Packets
import WireParsing

/// Receives what an `EncryptedChannel` finds.
protocol EncryptedChannelReceiver: AnyObject {
    /// A frame decrypted; its plaintext is valid only during the call.
    func channel(_ channel: EncryptedChannel, decrypted plaintext: UnsafeRawBufferPointer, packet: PacketInfo)
    /// A frame was lost in a gap: the plaintext stream skips it.
    func channelLostFrame(_ channel: EncryptedChannel, packet: PacketInfo)
    func channel(_ channel: EncryptedChannel, problem: SessionProblemEvent.Kind, counter: UInt64?, _ message: String, packet: PacketInfo)
    func channel(_ channel: EncryptedChannel, reached limit: LimitName, packet: PacketInfo)
    /// A session joined mid-way: the direction's frames were found; the frames already held
    /// are decrypted right after the call.
    func channel(_ channel: EncryptedChannel, joined join: HAPFrameJoiner.Join, packet: PacketInfo)
    /// A session joined mid-way: no candidate key opens the direction, which is only counted
    /// from now on.
    func channel(_ channel: EncryptedChannel, failedToJoin failure: HAPFrameJoiner.Failure, packet: PacketInfo)
}

/// One direction of an encrypted HAP-over-IP session: HAP frames (PROTOCOL §4.2), decrypted with
/// the direction's key when the key log gave one, else only followed and counted. A session the
/// capture began inside is first joined: its frames are looked for with the candidate keys.
final class EncryptedChannel {
    let direction: HAPDirection
    private var decryptor: HAPFrameDecryptor?
    private var scanner: FrameScanner?
    private var joiner: HAPFrameJoiner?
    /// The keys the joiner tries, in its order.
    private var joinKeys: [ChaCha20Poly1305.Key] = []
    /// Where each packet's bytes begin in what the joiner holds, so that the held frames are
    /// decrypted as the packets that carried them.
    private var heldPackets: [(offset: Int, packet: PacketInfo)] = []
    private var maximumFrameLength = 0
    private(set) var frames = FrameStatistics()
    private var reportedOversize = false

    /// Frames decrypted with `key`, or followed without one.
    init(_ direction: HAPDirection, key: ChaCha20Poly1305.Key?, maximumFrameLength: Int) {
        self.direction = direction
        self.maximumFrameLength = maximumFrameLength
        if let key {
            decryptor = Self.decryptor(key, maximumFrameLength: maximumFrameLength)
        } else {
            scanner = FrameScanner()
        }
    }

    /// A session already encrypted when the capture started, with no key to try: neither keys
    /// nor frame boundaries are known, so its bytes are only counted.
    static func startedBeforeCapture(_ direction: HAPDirection) -> EncryptedChannel {
        let channel = EncryptedChannel(direction, key: nil, maximumFrameLength: 0)
        channel.scanner?.loseSync()
        return channel
    }

    /// A session already encrypted when the capture started, whose frames are looked for with
    /// `keys` (each tried with counters up to `counterLimit`, `checkBudget` tag checks in all).
    static func joining(_ direction: HAPDirection, keys: [ChaCha20Poly1305.Key], counterLimit: Int, checkBudget: Int,
                        maximumFrameLength: Int) -> EncryptedChannel {
        let channel = EncryptedChannel(direction, key: nil, maximumFrameLength: maximumFrameLength)
        channel.scanner = nil
        channel.joinKeys = keys
        channel.joiner = HAPFrameJoiner(keys: keys, counterLimit: UInt64(max(counterLimit, 1)), checkBudget: UInt64(max(checkBudget, 1)))
        return channel
    }

    private static func decryptor(_ key: ChaCha20Poly1305.Key, maximumFrameLength: Int, firstCounter: UInt64 = 0, streamOffset: Int = 0) -> HAPFrameDecryptor {
        HAPFrameDecryptor(key: key, configuration: HAPFrameDecryptor.Configuration(maximumFrameLength: maximumFrameLength),
                          firstCounter: firstCounter, streamOffset: streamOffset)
    }

    /// Whether frames are being decrypted (until a failure stops the direction).
    var isDecrypting: Bool { decryptor != nil }

    /// Whether the direction's frames are still being looked for.
    var isJoining: Bool { joiner != nil }

    /// The first packet whose bytes the joiner holds, to be replayed once the frames are found.
    var earliestHeldPacket: PacketInfo? { heldPackets.first?.packet }

    /// Only the key at `index` of the joining keys is tried from now on.
    func keepOnlyJoinKey(at index: Int) {
        joiner?.keepOnlyKey(at: index)
    }

    /// Whether plaintext was recovered from the frames.
    var hasDecrypted: Bool { scanner == nil && frames.plaintextBytes > 0 }

    /// Whether `bytes` arriving now could be the start of plaintext HTTP rather than of a frame:
    /// only at a frame boundary that is still known.
    func mayStartPlaintext(_ bytes: UnsafeRawBufferPointer) -> Bool {
        (decryptor?.bufferedByteCount ?? 0) == 0 && (joiner?.heldByteCount ?? 0) == 0 && scanner?.isAtFrameBoundary != false
            && Self.looksLikePlaintextHTTP(bytes)
    }

    func receive(_ bytes: UnsafeRawBufferPointer, packet: PacketInfo, to receiver: some EncryptedChannelReceiver) {
        if var joiner = joiner.take() {
            heldPackets.append((joiner.heldByteCount, packet))
            let progress = joiner.append(bytes)
            settle(progress, of: joiner, packet: packet, receiver)
            return
        }
        // Taken out, not copied, so that its plaintext buffer is reused rather than copied.
        if var decryptor = decryptor.take() {
            do throws(HAPFrameDecryptionError) {
                try decryptor.decrypt(bytes) { frame in
                    count(length: frame.declaredLength, counter: frame.counter, packet: packet, receiver)
                    frames.ciphertextBytes += frame.byteCount
                    frames.plaintextBytes += frame.plaintext.count
                    receiver.channel(self, decrypted: frame.plaintext, packet: packet)
                }
                self.decryptor = decryptor
            } catch {
                reportFailure(error, packet: packet, receiver)
            }
        } else if var scanner {
            scanner.scan(bytes) { length in count(length: length, counter: nil, packet: packet, receiver) }
            self.scanner = scanner
            frames.ciphertextBytes += bytes.count
            if frames.firstFrameTime == nil { frames.firstFrameTime = packet.timestamp }
            frames.lastFrameTime = packet.timestamp
        }
    }

    /// The direction ended, or a gap cut it, while its frames were looked for: the bytes held
    /// decide.
    func finishJoining(packet: PacketInfo, to receiver: some EncryptedChannelReceiver) {
        guard var joiner = joiner.take() else { return }
        settle(joiner.finish(), of: joiner, packet: packet, receiver)
    }

    private func settle(_ progress: HAPFrameJoiner.Progress, of joiner: HAPFrameJoiner, packet: PacketInfo, _ receiver: some EncryptedChannelReceiver) {
        switch progress {
        case .needsMoreBytes:
            self.joiner = joiner
        case .joined(let join):
            decryptor = Self.decryptor(joinKeys[join.keyIndex], maximumFrameLength: maximumFrameLength,
                                       firstCounter: join.firstCounter, streamOffset: join.skippedByteCount)
            joinKeys = []
            // Reported at the packet where the first whole frame begins, so that the join comes
            // before the messages replayed from it in the capture-ordered event stream.
            let firstFrame = heldPackets.last { $0.offset <= join.skippedByteCount }?.packet ?? packet
            receiver.channel(self, joined: join, packet: firstFrame)
            let pieces = heldPackets
            heldPackets = []
            joiner.heldBytes.withUnsafeBytes { held in
                for (index, piece) in pieces.enumerated() {
                    let end = index + 1 < pieces.count ? pieces[index + 1].offset : held.count
                    let start = max(piece.offset, join.skippedByteCount)
                    guard start < end else { continue }
                    receive(UnsafeRawBufferPointer(rebasing: held[start..<end]), packet: piece.packet, to: receiver)
                }
            }
        case .failed(let failure):
            joinKeys = []
            heldPackets = []
            scanner = FrameScanner()
            scanner?.loseSync()
            frames.ciphertextBytes += joiner.heldByteCount
            receiver.channel(self, failedToJoin: failure, packet: packet)
        }
    }

    /// `byteCount` bytes of the direction are missing from the capture.
    func skipGap(_ byteCount: UInt64, packet: PacketInfo, to receiver: some EncryptedChannelReceiver) {
        finishJoining(packet: packet, to: receiver)
        if var decryptor = decryptor.take() {
            do {
                if try decryptor.skipGap(byteCount: Int(clamping: byteCount)) != nil { receiver.channelLostFrame(self, packet: packet) }
                self.decryptor = decryptor
            } catch {
                receiver.channel(self, problem: .gap, counter: error.counter,
                                 "\(byteCount) bytes missing from the capture hide where the next frame starts; the rest of this direction cannot be decrypted",
                                 packet: packet)
            }
        }
        scanner?.loseSync()
    }

    private func count(length: Int, counter: UInt64?, packet: PacketInfo, _ receiver: some EncryptedChannelReceiver) {
        frames.frames += 1
        frames.largestFrame = max(frames.largestFrame, length)
        if frames.firstFrameTime == nil { frames.firstFrameTime = packet.timestamp }
        frames.lastFrameTime = packet.timestamp
        guard length > HAPFrame.maximumLength else { return }
        frames.oversizeFrames += 1
        if !reportedOversize {
            reportedOversize = true
            receiver.channel(self, problem: .oversizeFrame, counter: counter ?? UInt64(frames.frames - 1),
                             "frame of \(length) bytes exceeds HAP's 1024-byte limit", packet: packet)
        }
    }

    /// Names a decryption failure: the wrong key, a counter skipped or reused, a forged frame, a
    /// length that makes no sense.
    private func reportFailure(_ error: HAPFrameDecryptionError, packet: PacketInfo, _ receiver: some EncryptedChannelReceiver) {
        let kind: SessionProblemEvent.Kind
        switch error.kind {
        case .authenticationFailed:
            if let other = error.authenticatingCounter {
                kind = other > error.counter ? .counterSkipped : .counterReused
            } else {
                kind = error.counter == 0 ? .keyDoesNotFit : .authenticationFailed
            }
        case .frameTooLong:
            kind = .frameBoundaryLost
            receiver.channel(self, reached: .frameLength, packet: packet)
        case .frameBoundaryLost:
            kind = .frameBoundaryLost
        }
        let message = kind == .keyDoesNotFit
            ? "the key-log key does not decrypt the first frame of this direction: it is not this session's key"
            : error.description
        receiver.channel(self, problem: kind, counter: error.counter, message, packet: packet)
    }

    static func looksLikePlaintextHTTP(_ bytes: UnsafeRawBufferPointer) -> Bool {
        // A frame's length field is little-endian and at most 0x0400 for any conforming frame, so
        // its second byte is a control character; every plaintext start has a letter or `/` there.
        guard bytes.count >= 2, bytes[1] >= 0x20 else { return false }
        for prefix in ["HTTP/1.", "EVENT/1.", "GET /", "PUT /", "POST /", "DELETE /"] {
            let utf8 = prefix.utf8
            if bytes.count >= utf8.count, zip(bytes, utf8).allSatisfy({ $0 == $1 }) { return true }
        }
        return false
    }
}
