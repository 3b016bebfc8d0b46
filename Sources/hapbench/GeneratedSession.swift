import HAPCrypto
import TLV8
import WireParsing

/// One generated HAP connection, played one exchange at a time so that the generator can
/// interleave many connections the way a busy home network does.
///
/// An encrypted session runs pair-verify M1–M4 with real X25519/Ed25519 material, then
/// `/accessories`, an `ev` subscription and a mix of reads, writes and EVENTs inside
/// ChaCha20-Poly1305 frames. A pair-setup session runs M1–M6 in plaintext with SRP proofs that
/// match the logged session key K. Every secret the analyzer needs goes to the key log.
struct GeneratedSession {
    enum Kind {
        case pairSetup
        case encrypted(exchanges: Int)
        /// Pair-verified, `/accessories` read and `priorFrames` frames sent each way before the
        /// capture started, as a home hub's sessions are: the capture holds no handshake and no
        /// pair-verify, and the key log names the session by its endpoints.
        case alreadyRunning(exchanges: Int, priorFrames: ClosedRange<Int>)
    }

    private enum Step {
        case open
        case pairSetupM1ToM4, pairSetupM5M6
        case pairVerifyM1M2, pairVerifyM3M4
        case accessories, subscribe, traffic
        case close
        case finished
    }

    private var connection: GeneratedTCPConnection
    private let accessory: GeneratedAccessory
    private let controller: GeneratedController
    private var step = Step.open
    /// The first step after the handshake: pair-setup or pair-verify.
    private let nextAfterOpen: Step
    private var remainingExchanges: Int
    /// Frames sealed for each direction once pair-verify has finished.
    private var controllerToAccessory: HAPFrameEncryptor?
    private var accessoryToController: HAPFrameEncryptor?
    /// The pair-verify carried from M1/M2 into M3.
    private var pairVerify: GeneratedPairVerify?
    // Pair-setup values carried from M2/M3 into M5/M6.
    private var srpSessionKey: SecretBytes?
    /// The pause after each step.
    private let pause: ClosedRange<Int>

    init(kind: Kind, accessory: GeneratedAccessory, controller: GeneratedController, clientPort: UInt16,
         pause: ClosedRange<Int> = 200...3_000, keyLog: inout KeyLogText, random: inout SeededRandom) throws(CryptoError) {
        self.pause = pause
        self.accessory = accessory
        self.controller = controller
        connection = GeneratedTCPConnection(
            client: GeneratedEndpoint(address: controller.address, port: clientPort), server: accessory.endpoint, random: &random)
        switch kind {
        case .pairSetup:
            remainingExchanges = 0
            nextAfterOpen = .pairSetupM1ToM4
        case .encrypted(let exchanges):
            remainingExchanges = exchanges
            nextAfterOpen = .pairVerifyM1M2
        case .alreadyRunning(let exchanges, let priorFrames):
            remainingExchanges = exchanges
            nextAfterOpen = .traffic
            step = .traffic
            let keys = try verifiedBeforeCapture(keyLog: &keyLog, random: &random)
            controllerToAccessory = HAPFrameEncryptor(key: keys.session.controllerToAccessory, firstCounter: UInt64(random.int(in: priorFrames)))
            accessoryToController = HAPFrameEncryptor(key: keys.session.accessoryToController, firstCounter: UInt64(random.int(in: priorFrames)))
        }
    }

    var isFinished: Bool { if case .finished = step { true } else { false } }

    /// Ends the session at its next step: reads and writes stop, the connection closes.
    mutating func wrapUp() {
        remainingExchanges = 0
    }

    /// Plays the next exchange into `writer`.
    mutating func advance(_ writer: FrameWriter, keyLog: inout KeyLogText, random: inout SeededRandom) throws(CryptoError) {
        switch step {
        case .open:
            connection.open(writer)
            step = nextAfterOpen
        case .pairSetupM1ToM4:
            try pairSetupM1ToM4(writer, keyLog: &keyLog, random: &random)
            step = .pairSetupM5M6
        case .pairSetupM5M6:
            try pairSetupM5M6(writer)
            step = .close
        case .pairVerifyM1M2:
            try pairVerifyM1M2(writer, keyLog: &keyLog, random: &random)
            step = .pairVerifyM3M4
        case .pairVerifyM3M4:
            try pairVerifyM3M4(writer)
            step = .accessories
        case .accessories:
            try exchange(request: HAPHTTPText.get("/accessories", host: host), response: random.chance(1, in: 2)
                ? HAPHTTPText.chunkedJSONResponse(json: accessory.databaseJSON, chunkSize: 2_048)
                : HAPHTTPText.jsonResponse(json: accessory.databaseJSON), writer)
            step = .subscribe
        case .subscribe:
            let entries = (2...(accessory.lightbulbCount + 1)).map { #"{"aid":\#($0),"iid":\#(GeneratedAccessory.InstanceID.temperature),"ev":true}"# }
            try exchange(request: HAPHTTPText.put("/characteristics", host: host, json: #"{"characteristics":["# + entries.joined(separator: ",") + "]}"),
                         response: HAPHTTPText.noContent, writer)
            step = .traffic
        case .traffic:
            guard remainingExchanges > 0 else {
                step = .close
                return try advance(writer, keyLog: &keyLog, random: &random)
            }
            remainingExchanges -= 1
            try traffic(writer, random: &random)
        case .close:
            connection.close(writer)
            step = .finished
        case .finished:
            break
        }
        writer.advance(microseconds: random.int(in: pause))
    }

    private var host: String { accessory.name + "._hap._tcp.local" }

    // MARK: Pair setup (plaintext)

    /// HAP: Pair Setup M1–M4. The SRP values are random but well-formed (A and B below N), and
    /// the proofs are computed from the logged K exactly as the analyzer checks them.
    private mutating func pairSetupM1ToM4(_ writer: FrameWriter, keyLog: inout KeyLogText, random: inout SeededRandom) throws(CryptoError) {
        let m1 = PairSetupMessage.m1(.init(method: .pairSetup)).encoded()
        let salt = random.bytes(SRPGroup.saltByteCount)
        let accessoryKey = Self.srpPublicValue(&random)
        let m2 = PairSetupMessage.m2(.init(publicKey: accessoryKey, salt: salt)).encoded()
        sendPlaintext(HAPHTTPText.pairingRequest("/pair-setup", host: host, body: m1), HAPHTTPText.pairingResponse(body: m2), writer)
        writer.advance(microseconds: random.int(in: 2_000...8_000))

        let controllerKey = Self.srpPublicValue(&random)
        let k = random.secret(SRPGroup.sessionKeyByteCount)
        srpSessionKey = k
        keyLog.add("PAIR_SETUP_SESSION_KEY", Hex.encode(controllerKey.prefix(32)), Hex.encode(k.revealedBytes()))
        let transcript = try SRPTranscript(
            salt: salt.span.bytes, controllerPublicKey: controllerKey.span.bytes, accessoryPublicKey: accessoryKey.span.bytes, sessionKey: k)
        let controllerProof = transcript.controllerProof()
        let accessoryProof = transcript.accessoryProof(controllerProof: controllerProof.span.bytes)
        let m3 = PairSetupMessage.m3(.init(publicKey: controllerKey, proof: controllerProof)).encoded()
        let m4 = PairSetupMessage.m4(.init(proof: accessoryProof)).encoded()
        sendPlaintext(HAPHTTPText.pairingRequest("/pair-setup", host: host, body: m3), HAPHTTPText.pairingResponse(body: m4), writer)
    }

    /// HAP: Pair Setup M5–M6, each party's identity, long-term key and signature sealed with
    /// the key derived from K.
    private mutating func pairSetupM5M6(_ writer: FrameWriter) throws(CryptoError) {
        guard let k = srpSessionKey else { return }
        let keys = try PairSetupKeys(srpSessionKey: k)
        let controllerID = Array(controller.pairingID.utf8)
        let controllerSigned = try PairingSignedInfo.pairSetupM5(
            controllerSignX: keys.controllerSignX, controllerPairingID: controllerID.span.bytes,
            controllerLongTermPublicKey: controller.longTermKey.publicKey)
        let m5Inner = PairingSubTLV(
            identifier: PairingIdentifier(controller.pairingID), publicKey: controller.longTermKey.publicKey.bytes,
            signature: controllerSigned.signature(signedBy: controller.longTermKey)).encoded()
        let accessoryID = Array(accessory.deviceID.utf8)
        let accessorySigned = try PairingSignedInfo.pairSetupM6(
            accessorySignX: keys.accessorySignX, accessoryPairingID: accessoryID.span.bytes,
            accessoryLongTermPublicKey: accessory.longTermKey.publicKey)
        let m6Inner = PairingSubTLV(
            identifier: PairingIdentifier(accessory.deviceID), publicKey: accessory.longTermKey.publicKey.bytes,
            signature: accessorySigned.signature(signedBy: accessory.longTermKey)).encoded()
        let m5 = PairSetupMessage.m5(.init(encryptedData: PairingEncryptedData.seal(m5Inner.span.bytes, for: .pairSetupM5, key: keys.encryptionKey))).encoded()
        let m6 = PairSetupMessage.m6(.init(encryptedData: PairingEncryptedData.seal(m6Inner.span.bytes, for: .pairSetupM6, key: keys.encryptionKey))).encoded()
        sendPlaintext(HAPHTTPText.pairingRequest("/pair-setup", host: host, body: m5), HAPHTTPText.pairingResponse(body: m6), writer)
    }

    /// 384 bytes below N: HAP's prime starts with 0xFF, so a smaller first byte suffices.
    private static func srpPublicValue(_ random: inout SeededRandom) -> [UInt8] {
        var value = random.bytes(SRPGroup.primeByteCount)
        value[0] = UInt8(random.int(in: 1...0xFE))
        return value
    }

    // MARK: Pair verify (plaintext) and the session keys

    /// A pair-verify before the capture: only the key log knows it, naming the session by its
    /// TCP endpoints as an accessory-side exporter does (docs/keylog.md, SESSION_ENDPOINTS).
    private mutating func verifiedBeforeCapture(keyLog: inout KeyLogText, random: inout SeededRandom) throws(CryptoError) -> PairVerifyKeys {
        let exchange = try GeneratedPairVerify(keyLog: &keyLog, random: &random)
        keyLog.add("SESSION_ENDPOINTS", Hex.encode(exchange.controllerEphemeralKey), "\(connection.client) \(connection.server)")
        return exchange.keys
    }

    /// HAP: Pair Verify M1–M2, the ephemeral X25519 exchange and the accessory's signature.
    private mutating func pairVerifyM1M2(_ writer: FrameWriter, keyLog: inout KeyLogText, random: inout SeededRandom) throws(CryptoError) {
        let exchange = try GeneratedPairVerify(keyLog: &keyLog, random: &random)
        pairVerify = exchange
        let m2 = try exchange.m2(accessoryID: accessory.deviceID, accessoryKey: accessory.longTermKey)
        sendPlaintext(HAPHTTPText.pairingRequest("/pair-verify", host: host, body: exchange.m1), HAPHTTPText.pairingResponse(body: m2), writer)
    }

    /// HAP: Pair Verify M3–M4; the frames start right after M4 (PROTOCOL §4.2).
    private mutating func pairVerifyM3M4(_ writer: FrameWriter) throws(CryptoError) {
        guard let exchange = pairVerify else { return }
        let m3 = try exchange.m3(controllerID: controller.pairingID, controllerKey: controller.longTermKey)
        sendPlaintext(HAPHTTPText.pairingRequest("/pair-verify", host: host, body: m3), HAPHTTPText.pairingResponse(body: exchange.m4), writer)
        controllerToAccessory = HAPFrameEncryptor(key: exchange.keys.session.controllerToAccessory)
        accessoryToController = HAPFrameEncryptor(key: exchange.keys.session.accessoryToController)
    }

    // MARK: Encrypted traffic

    /// One read, write or EVENT, in proportions like a home's: sensors notify most.
    private mutating func traffic(_ writer: FrameWriter, random: inout SeededRandom) throws(CryptoError) {
        let aid = random.int(in: 2...(accessory.lightbulbCount + 1))
        let brightness = random.int(in: 0...100)
        let temperature = Self.celsius(random.int(in: 150...300))
        switch random.int(in: 0...9) {
        case 0...2:
            let ids = "\(aid).\(GeneratedAccessory.InstanceID.on),\(aid).\(GeneratedAccessory.InstanceID.brightness),\(aid).\(GeneratedAccessory.InstanceID.temperature)"
            let json = #"{"characteristics":[{"aid":\#(aid),"iid":9,"value":\#(random.chance(1, in: 2))},{"aid":\#(aid),"iid":10,"value":\#(brightness)},{"aid":\#(aid),"iid":12,"value":\#(temperature)}]}"#
            try exchange(request: HAPHTTPText.get("/characteristics?id=" + ids, host: host), response: HAPHTTPText.jsonResponse(json: json), writer)
        case 3...4:
            let json = #"{"characteristics":[{"aid":\#(aid),"iid":9,"value":true},{"aid":\#(aid),"iid":10,"value":\#(brightness)}]}"#
            try exchange(request: HAPHTTPText.put("/characteristics", host: host, json: json), response: HAPHTTPText.noContent, writer)
        default:
            let json = #"{"characteristics":[{"aid":\#(aid),"iid":12,"value":\#(temperature)}]}"#
            try sendEncrypted(HAPHTTPText.event(json: json), from: .server, writer)
        }
    }

    /// Tenths of a degree as HAP JSON writes a float: `21.5`.
    private static func celsius(_ tenths: Int) -> String {
        "\(tenths / 10).\(tenths % 10)"
    }

    private mutating func exchange(request: [UInt8], response: [UInt8], _ writer: FrameWriter) throws(CryptoError) {
        try sendEncrypted(request, from: .client, writer)
        writer.advance(microseconds: 900)
        try sendEncrypted(response, from: .server, writer)
    }

    /// Seals `message` into frames of at most 1024 bytes, as HAP senders cut every write.
    private mutating func sendEncrypted(_ message: [UInt8], from side: GeneratedTCPConnection.Side, _ writer: FrameWriter) throws(CryptoError) {
        let frames: [UInt8]
        switch side {
        case .client:
            guard var encryptor = controllerToAccessory else { return }
            frames = try encryptor.seal(message.span.bytes)
            controllerToAccessory = encryptor
        case .server:
            guard var encryptor = accessoryToController else { return }
            frames = try encryptor.seal(message.span.bytes)
            accessoryToController = encryptor
        }
        connection.send(frames, from: side, writer)
    }

    private mutating func sendPlaintext(_ request: [UInt8], _ response: [UInt8], _ writer: FrameWriter) {
        connection.send(request, from: .client, writer)
        writer.advance(microseconds: 1_500)
        connection.send(response, from: .server, writer)
    }
}

/// The key log written beside a generated capture (docs/keylog.md).
struct KeyLogText {
    private(set) var text = "# hapbench generated capture: secrets for every session\n"

    mutating func add(_ label: String, _ identifier: String, _ secret: String) {
        text += "\(label) \(identifier) \(secret)\n"
    }
}
