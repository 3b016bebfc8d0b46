import CoAP
import HAPCrypto
import HAPPDU
import WireParsing

/// One generated HAP-over-CoAP session, played one exchange at a time: a controller port talking
/// to an accessory's CoAP endpoint, pair-verified before the capture started, so that only the
/// key log (`CONTROL_WRITE_KEY`, `CONTROL_READ_KEY`, `EVENT_READ_KEY`, `SESSION_ENDPOINTS`) opens
/// it, as in `captures/coap/*.keylog`.
///
/// The session reads the database (0x09, in Block2 blocks when long), subscribes to every
/// temperature (0x0B), then reads, writes and hears events. Each request is a confirmable POST
/// to `/` answered by a piggy-backed 2.04; each event a confirmable PUT from the accessory
/// answered 2.03 (docs/coap.md, aiohomekit 4.0.1 `controller/coap/connection.py`).
struct GeneratedCoAPSession: GeneratedConnection {
    /// What the session put on the wire, to compare with what the analysis finds; PDUs as the
    /// analysis counts them: requests, responses and event records.
    enum Counted: String, CaseIterable {
        case coapMessages = "CoAP messages", pdus = "HAP PDUs", block1Bodies = "Block1 bodies", block2Bodies = "Block2 bodies"
        case characteristicActivities = "characteristic reads, writes, subscriptions and events"
    }

    private enum Step {
        case readDatabase, subscribe, traffic, finished
    }

    /// aiocoap 0.4.17 cuts bodies longer than 1124 bytes into 1024-byte blocks (SZX 6) and sends
    /// shorter ones whole (docs/coap.md "Block-wise transfer").
    static let blockSizeExponent: UInt8 = 6
    static let blockSize = 1 << (Int(blockSizeExponent) + 4)
    static let largestUnblockedBody = 1_124

    let controller: GeneratedEndpoint
    let accessory: GeneratedEndpoint
    private let device: GeneratedPDUAccessory
    private var requests: SealedMessageStream
    private var responses: SealedMessageStream
    private var events: SealedMessageStream
    private var controllerMessageID: UInt16
    private var accessoryMessageID: UInt16
    private var nextToken: UInt64
    private var step = Step.readDatabase
    private var remainingExchanges: Int
    private let pause: ClosedRange<Int>
    private(set) var counts = GeneratedCounts<Counted>()

    init(controller: GeneratedEndpoint, accessory: GeneratedEndpoint, device: GeneratedPDUAccessory, exchanges: Int,
         pause: ClosedRange<Int>, keyLog: inout KeyLogText, random: inout SeededRandom) throws(CryptoError) {
        self.controller = controller
        self.accessory = accessory
        self.device = device
        remainingExchanges = exchanges
        self.pause = pause
        requests = try SealedMessageStream(random: &random)
        responses = try SealedMessageStream(random: &random)
        events = try SealedMessageStream(random: &random)
        controllerMessageID = UInt16(truncatingIfNeeded: random.next())
        accessoryMessageID = UInt16(truncatingIfNeeded: random.next())
        nextToken = random.next() >> 16
        // The session's id: the controller's pair-verify public key, which the capture never shows.
        let id = Hex.encode(random.bytes(32))
        keyLog.add("CONTROL_WRITE_KEY", id, Hex.encode(requests.key.secret.revealedBytes()))
        keyLog.add("CONTROL_READ_KEY", id, Hex.encode(responses.key.secret.revealedBytes()))
        keyLog.add("EVENT_READ_KEY", id, Hex.encode(events.key.secret.revealedBytes()))
        keyLog.add("SESSION_ENDPOINTS", id, "\(controller) \(accessory)")
    }

    var isFinished: Bool { step == .finished }

    /// Plays the next exchange into `writer`; the keys went to the key log when the session began.
    mutating func advance(_ writer: FrameWriter, stopping: Bool, keyLog: inout KeyLogText, random: inout SeededRandom) {
        if stopping { remainingExchanges = 0 }
        switch step {
        case .readDatabase:
            let tid = Self.loneTID(&random)
            post([request(.databaseRead, tid: tid, iid: 0)], [response(tid: tid, body: device.databaseBody)], activities: 0, writer, random: &random)
            step = .subscribe
        case .subscribe:
            let subscriptions = device.zones.enumerated().map { request(.subscribe, tid: UInt8($0.offset), iid: $0.element.temperature) }
            post(subscriptions, subscriptions.indices.map { response(tid: UInt8($0)) }, activities: subscriptions.count, writer, random: &random)
            step = .traffic
        case .traffic:
            guard remainingExchanges > 0 else {
                step = .finished
                return
            }
            remainingExchanges -= 1
            traffic(writer, random: &random)
        case .finished:
            return
        }
        writer.advance(microseconds: random.int(in: pause))
    }

    /// One read, write or event, in proportions like a home's: sensors notify most; now and then
    /// a scene writes every zone at once, which is long enough on a large accessory to travel
    /// in Block1 blocks.
    private mutating func traffic(_ writer: FrameWriter, random: inout SeededRandom) {
        let zone = device.zones[random.int(in: 0...(device.zones.count - 1))]
        switch random.int(in: 0...39) {
        case 0:
            var writes: [[UInt8]] = []
            for (index, zone) in device.zones.enumerated() {
                writes.append(request(.characteristicWrite, tid: UInt8(2 * index), iid: zone.on, value: GeneratedPDUAccessory.bool(true)))
                writes.append(request(.characteristicWrite, tid: UInt8(2 * index + 1), iid: zone.brightness,
                                      value: GeneratedPDUAccessory.int32(Int32(random.int(in: 0...100)))))
            }
            post(writes, writes.indices.map { response(tid: UInt8($0)) }, activities: writes.count, writer, random: &random)
        case 1...12:
            let iids = [zone.on, zone.brightness, zone.temperature]
            let values = [GeneratedPDUAccessory.bool(random.chance(1, in: 2)), GeneratedPDUAccessory.int32(Int32(random.int(in: 0...100))),
                          Self.temperature(&random)]
            post(iids.enumerated().map { request(.characteristicRead, tid: UInt8($0.offset), iid: $0.element) },
                 values.enumerated().map { response(tid: UInt8($0.offset), value: $0.element) }, activities: 3, writer, random: &random)
        case 13...17:
            let tid = Self.loneTID(&random)
            post([request(.characteristicRead, tid: tid, iid: zone.temperature)], [response(tid: tid, value: Self.temperature(&random))],
                 activities: 1, writer, random: &random)
        case 18...23:
            let writes = [request(.characteristicWrite, tid: 0, iid: zone.on, value: GeneratedPDUAccessory.bool(random.chance(1, in: 2))),
                          request(.characteristicWrite, tid: 1, iid: zone.brightness, value: GeneratedPDUAccessory.int32(Int32(random.int(in: 0...100))))]
            post(writes, [response(tid: 0), response(tid: 1)], activities: 2, writer, random: &random)
        default:
            var records: [UInt8] = []
            let recordCount = random.int(in: 1...2)
            for _ in 0..<recordCount {
                let iid = device.zones[random.int(in: 0...(device.zones.count - 1))].temperature
                records += Self.eventRecord(iid: iid, body: GeneratedPDUAccessory.valueBody(Self.temperature(&random)))
            }
            event(records, writer)
            counts[.pdus] += recordCount
            counts[.characteristicActivities] += recordCount
        }
    }

    /// A temperature in half degrees, exact in float32.
    private static func temperature(_ random: inout SeededRandom) -> [UInt8] {
        GeneratedPDUAccessory.float32(Float(random.int(in: 30...60)) / 2)
    }

    /// aiohomekit numbers a batch's TIDs from 0 and gives a lone PDU a random TID 1–254
    /// (`controller/coap/pdu.py`, `connection.py` `post`).
    private static func loneTID(_ random: inout SeededRandom) -> UInt8 {
        UInt8(random.int(in: 1...254))
    }

    // MARK: PDUs

    /// Over CoAP the body length is always there, also when 0 (aiohomekit `encode_pdu`).
    private func request(_ opcode: HAPOpcode, tid: UInt8, iid: UInt16, value: [UInt8]? = nil) -> [UInt8] {
        let body = value.map(GeneratedPDUAccessory.valueBody) ?? []
        return HAPPDU.request(HAPPDURequest(opcode: opcode, transactionID: tid, instanceID: UInt64(iid), bodyLength: body.count, body: body)).encoded
    }

    private func response(tid: UInt8, value: [UInt8]? = nil) -> [UInt8] {
        response(tid: tid, body: value.map(GeneratedPDUAccessory.valueBody) ?? [])
    }

    private func response(tid: UInt8, body: [UInt8]) -> [UInt8] {
        HAPPDU.response(HAPPDUResponse(transactionID: tid, status: .success, bodyLength: body.count, body: body)).encoded
    }

    /// An event record: a byte aiohomekit skips (sent as 0), the IID and the body's length
    /// (little-endian), the body (aiohomekit `EventResource.render_put`, `<BHH`).
    private static func eventRecord(iid: UInt16, body: [UInt8]) -> [UInt8] {
        [0, UInt8(truncatingIfNeeded: iid), UInt8(iid >> 8), UInt8(truncatingIfNeeded: body.count), UInt8(body.count >> 8)] + body
    }

    // MARK: CoAP messages

    /// A batch of request PDUs sealed as one body and POSTed to `/`, its responses sealed as one
    /// body in the 2.04 that answers it.
    private mutating func post(_ pdus: [[UInt8]], _ answers: [[UInt8]], activities: Int, _ writer: FrameWriter, random: inout SeededRandom) {
        counts[.pdus] += pdus.count + answers.count
        counts[.characteristicActivities] += activities
        let body = requests.seal(pdus.flatMap { $0 })
        let answer = responses.seal(answers.flatMap { $0 })
        let requestBlocks = Self.blocks(of: body)
        if requestBlocks.count > 1 { counts[.block1Bodies] += 1 }
        let answerBlocks = Self.blocks(of: answer)
        if answerBlocks.count > 1 { counts[.block2Bodies] += 1 }

        // RFC 7959 §2.5: each Block1 block is a request of its own; all but the last are
        // answered 2.31 Continue, the last with the response (and its first Block2 block).
        for (number, block) in requestBlocks.enumerated() {
            let isLast = number == requestBlocks.count - 1
            var options: [CoAPOption] = []
            let block1 = requestBlocks.count > 1 ? Self.blockOption(.block1, number: number, hasMore: !isLast) : nil
            if let block1 { options.append(block1) }
            let token = takeToken()
            let messageID = send(.confirmable, .post, token: token, options: options, payload: block, from: .controller, writer)
            writer.advance(microseconds: random.int(in: 2_000...9_000))
            var answerOptions = block1.map { [$0] } ?? []
            if isLast, answerBlocks.count > 1 { answerOptions.append(Self.blockOption(.block2, number: 0, hasMore: true)) }
            reply(to: messageID, code: isLast ? .changed : .continue, token: token, options: answerOptions,
                  payload: isLast ? answerBlocks[0] : [], writer)
            writer.advance(microseconds: random.int(in: 300...2_000))
        }
        // RFC 7959 §2.4: the controller asks for each further block with an empty POST.
        for number in answerBlocks.indices.dropFirst() {
            let token = takeToken()
            let asking = Self.blockOption(.block2, number: number, hasMore: false)
            let messageID = send(.confirmable, .post, token: token, options: [asking], payload: [], from: .controller, writer)
            writer.advance(microseconds: random.int(in: 2_000...9_000))
            reply(to: messageID, code: .changed, token: token,
                  options: [Self.blockOption(.block2, number: number, hasMore: number < answerBlocks.count - 1)], payload: answerBlocks[number], writer)
            writer.advance(microseconds: random.int(in: 300...2_000))
        }
    }

    /// The accessory's event: a confirmable PUT to the controller's session port, answered 2.03.
    private mutating func event(_ records: [UInt8], _ writer: FrameWriter) {
        let token = takeToken()
        let messageID = send(.confirmable, .put, token: token, options: [], payload: events.seal(records), from: .accessory, writer)
        writer.advance(microseconds: 1_500)
        counts[.coapMessages] += 1
        writer.writeUDP(from: controller, to: accessory, payload: CoAPMessage(
            type: .acknowledgement, code: .valid, messageID: messageID, token: token).encoded)
    }

    private enum Sender { case controller, accessory }

    /// Sends a new message with the sender's next message ID; returns the ID.
    private mutating func send(
        _ type: CoAPMessageType, _ code: CoAPCode, token: CoAPToken, options: [CoAPOption], payload: [UInt8], from sender: Sender,
        _ writer: FrameWriter
    ) -> UInt16 {
        let messageID: UInt16
        switch sender {
        case .controller:
            messageID = controllerMessageID
            controllerMessageID &+= 1
        case .accessory:
            messageID = accessoryMessageID
            accessoryMessageID &+= 1
        }
        let message = CoAPMessage(type: type, code: code, messageID: messageID, token: token, options: options, payload: payload)
        let (source, destination) = sender == .controller ? (controller, accessory) : (accessory, controller)
        writer.writeUDP(from: source, to: destination, payload: message.encoded)
        counts[.coapMessages] += 1
        return messageID
    }

    /// The accessory's piggy-backed response: an ACK with the request's message ID and token (RFC 7252 §5.2.1).
    private mutating func reply(to messageID: UInt16, code: CoAPCode, token: CoAPToken, options: [CoAPOption], payload: [UInt8], _ writer: FrameWriter) {
        let message = CoAPMessage(type: .acknowledgement, code: code, messageID: messageID, token: token, options: options, payload: payload)
        writer.writeUDP(from: accessory, to: controller, payload: message.encoded)
        counts[.coapMessages] += 1
    }

    private mutating func takeToken() -> CoAPToken {
        defer { nextToken &+= 1 }
        return CoAPToken(value: nextToken, length: 8)
    }

    private static func blocks(of body: [UInt8]) -> [[UInt8]] {
        guard body.count > largestUnblockedBody else { return [body] }
        return stride(from: 0, to: body.count, by: blockSize).map { Array(body[$0..<min($0 + blockSize, body.count)]) }
    }

    private static func blockOption(_ number: CoAPOptionNumber, number block: Int, hasMore: Bool) -> CoAPOption {
        CoAPOption(number: number, value: CoAPBlockOption(number: UInt32(block), hasMore: hasMore, sizeExponent: blockSizeExponent).encodedValue)
    }
}
