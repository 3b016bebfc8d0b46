import HAPCrypto
import HAPPDU

/// One generated HAP-BLE connection, played a step at a time so that the generator can
/// interleave the connections of a hub's Bluetooth controller.
///
/// The host (the HAP controller, GATT client, LE central) connects, exchanges the ATT MTU,
/// discovers the GATT table and reads every instance ID; on some connections it reads every
/// characteristic's signature (0x01) so that the database is built anew. It pair-verifies on the
/// Pair Verify characteristic with real X25519/Ed25519 material, then every HAP PDU fragment is
/// sealed on its own: reads, writes, subscriptions through the CCC descriptors, and events as
/// empty indications the controller answers with a read (HAP: HAP-BLE procedures; HomeKitADK
/// `HAPBLEProcedure.c`, `HAPBLEPeripheralManager.c`; aiohomekit `controller/ble/client.py`).
///
/// HAP PDUs longer than the connection's fragment size travel in several fragments, each its
/// own GATT value; GATT values longer than the ATT MTU allows are written with Prepare Write and
/// read on with Read Blob (Core Vol 3 Part G §4.8.3, §4.9.4).
struct GeneratedBLEConnection: GeneratedConnection {
    /// What the connection put on the wire, to compare with what the analysis finds: whole HAP
    /// PDUs (requests and responses), activities of characteristics (not pairing, not signature
    /// reads), GATT values written with Prepare Write or read on with Read Blob.
    enum Counted: String, CaseIterable {
        case attPDUs = "ATT PDUs", hapPDUs = "HAP PDUs", fragmentedPDUs = "HAP PDUs in several fragments", longValues = "long GATT values"
        case characteristicActivities = "characteristic reads, writes, subscriptions and events"
        case signatureReadConnections = "connections reading signatures"
    }

    private enum Step {
        case connect, discover, readSignatures, pairVerifyM1M2, pairVerifyM3M4, subscribe, traffic, disconnect, finished
    }

    /// BlueZ asks for the largest ATT MTU (Core Vol 3 Part F §3.2.9: 517).
    static let clientMTU: UInt16 = 517
    /// Time between ATT PDUs: about a connection event (30 ms interval, two PDUs an event).
    static let attSpacing = 7_500

    let handle: UInt16
    private let accessory: GeneratedBLEAccessory
    private let controller: GeneratedController
    private let mtu: Int
    /// The plaintext bytes of a HAP PDU fragment.
    private let fragmentLength: Int
    private let readsSignatures: Bool
    private var pairVerify: GeneratedPairVerify?
    private var toAccessory: SealedMessageStream?
    private var toController: SealedMessageStream?
    private var nextTID: UInt8
    private var step = Step.connect
    private var remainingExchanges: Int
    private let pause: ClosedRange<Int>
    private(set) var counts = GeneratedCounts<Counted>()

    init(handle: UInt16, accessory: GeneratedBLEAccessory, controller: GeneratedController, readsSignatures: Bool, exchanges: Int,
         pause: ClosedRange<Int>, random: inout SeededRandom) {
        self.handle = handle
        self.accessory = accessory
        self.controller = controller
        self.readsSignatures = readsSignatures
        remainingExchanges = exchanges
        self.pause = pause
        mtu = [104, 185, 247][random.int(in: 0...2)]
        fragmentLength = random.chance(1, in: 3) ? 32 : 512
        nextTID = UInt8(random.int(in: 0...255))
    }

    var isFinished: Bool { step == .finished }
    var accessoryIndex: Int { accessory.index }

    /// Plays the next step into `writer`: a GATT procedure, a pairing exchange or a HAP transaction.
    mutating func advance(_ writer: FrameWriter, stopping: Bool, keyLog: inout KeyLogText, random: inout SeededRandom) throws(CryptoError) {
        if stopping { remainingExchanges = 0 }
        switch step {
        case .connect:
            writer.writeFrame(BluetoothPacketText.leConnectionComplete(handle: handle, peer: accessory.wireAddress))
            step = .discover
        case .discover:
            discover(writer)
            step = readsSignatures ? .readSignatures : .pairVerifyM1M2
        case .readSignatures:
            counts[.signatureReadConnections] += 1
            for service in accessory.services {
                for characteristic in service.characteristics {
                    exchange(.characteristicSignatureRead, characteristic, response: accessory.device.signatureBody(of: characteristic.pdu, in: service.pdu), writer)
                }
            }
            step = .pairVerifyM1M2
        case .pairVerifyM1M2:
            let verify = try GeneratedPairVerify(keyLog: &keyLog, random: &random)
            pairVerify = verify
            exchange(.characteristicWrite, accessory.pairVerify, request: Self.returningResponse(verify.m1),
                     response: GeneratedPDUAccessory.valueBody(try verify.m2(accessoryID: accessory.deviceID, accessoryKey: accessory.longTermKey)), writer)
            step = .pairVerifyM3M4
        case .pairVerifyM3M4:
            guard let verify = pairVerify else { return }
            exchange(.characteristicWrite, accessory.pairVerify,
                     request: Self.returningResponse(try verify.m3(controllerID: controller.pairingID, controllerKey: controller.longTermKey)),
                     response: GeneratedPDUAccessory.valueBody(verify.m4), writer)
            toAccessory = SealedMessageStream(key: verify.keys.session.controllerToAccessory)
            toController = SealedMessageStream(key: verify.keys.session.accessoryToController)
            step = .subscribe
        case .subscribe:
            // Core Vol 3 Part G §3.3.3.3: 0x0002 enables indications.
            for zone in accessory.device.zones {
                guard let configuration = accessory.characteristic(zone.temperature)?.0.configurationDescriptor else { continue }
                send(BluetoothPacketText.writeRequest(configuration, [0x02, 0x00]), .hostToController, writer)
                send(BluetoothPacketText.writeResponse, .controllerToHost, writer)
                counts[.characteristicActivities] += 1
            }
            step = .traffic
        case .traffic:
            guard remainingExchanges > 0 else {
                step = .disconnect
                return try advance(writer, stopping: stopping, keyLog: &keyLog, random: &random)
            }
            remainingExchanges -= 1
            traffic(writer, random: &random)
        case .disconnect:
            writer.writeFrame(BluetoothPacketText.disconnectionComplete(handle: handle))
            step = .finished
        case .finished:
            return
        }
        writer.advance(microseconds: random.int(in: pause))
    }

    // MARK: GATT discovery (Core Vol 3 Part G §4.4.1, §4.6.1, §4.7.1)

    private mutating func discover(_ writer: FrameWriter) {
        send(BluetoothPacketText.exchangeMTURequest(Self.clientMTU), .hostToController, writer)
        send(BluetoothPacketText.exchangeMTUResponse(UInt16(mtu)), .controllerToHost, writer)
        var start: UInt16 = 1
        for page in Self.pages(accessory.services, entryLength: 20, mtu: mtu) {
            send(BluetoothPacketText.readByGroupTypeRequest(start, 0xFFFF, type: 0x2800), .hostToController, writer)
            send(BluetoothPacketText.readByGroupTypeResponse(page.map { ($0.handle, $0.endHandle, GeneratedPDUAccessory.uuidBytes($0.pdu.type)) }),
                 .controllerToHost, writer)
            start = (page.last?.endHandle ?? 0) + 1
        }
        send(BluetoothPacketText.readByGroupTypeRequest(start, 0xFFFF, type: 0x2800), .hostToController, writer)
        send(BluetoothPacketText.errorResponse(request: 0x10, handle: start), .controllerToHost, writer)

        for service in accessory.services {
            // Core Vol 3 Part G §3.3.1: properties, value handle, UUID.
            var declarations = [(handle: service.handle + 1,
                                 value: [0x02] + BluetoothPacketText.le16(service.instanceIDValueHandle)
                                     + GeneratedPDUAccessory.uuidBytes(GeneratedBLEAccessory.serviceInstanceIDType))]
            declarations += service.characteristics.map {
                ($0.declarationHandle, [$0.gattProperties] + BluetoothPacketText.le16($0.valueHandle) + GeneratedPDUAccessory.uuidBytes($0.pdu.type))
            }
            var from = service.handle + 1
            for page in Self.pages(declarations, entryLength: 21, mtu: mtu) {
                send(BluetoothPacketText.readByTypeRequest(from, service.endHandle, type: 0x2803), .hostToController, writer)
                send(BluetoothPacketText.readByTypeResponse(Array(page)), .controllerToHost, writer)
                from = (page.last?.handle ?? 0) + 2
            }
            for characteristic in service.characteristics {
                send(BluetoothPacketText.findInformationRequest(characteristic.valueHandle + 1, characteristic.lastHandle), .hostToController, writer)
                send(BluetoothPacketText.findInformationResponse([(characteristic.instanceIDDescriptor,
                                                                   GeneratedPDUAccessory.uuidBytes(GeneratedBLEAccessory.characteristicInstanceIDType))]),
                     .controllerToHost, writer)
                guard let configuration = characteristic.configurationDescriptor else { continue }
                send(BluetoothPacketText.findInformationRequest(configuration, characteristic.lastHandle), .hostToController, writer)
                send(BluetoothPacketText.findInformationResponse([(configuration, BluetoothPacketText.le16(0x2902))]), .controllerToHost, writer)
            }
            // HAP: the instance IDs, little-endian uint16 (aiohomekit `get_characteristic_iid`).
            send(BluetoothPacketText.readRequest(service.instanceIDValueHandle), .hostToController, writer)
            send(BluetoothPacketText.readResponse(BluetoothPacketText.le16(service.pdu.instanceID)), .controllerToHost, writer)
            for characteristic in service.characteristics {
                send(BluetoothPacketText.readRequest(characteristic.instanceIDDescriptor), .hostToController, writer)
                send(BluetoothPacketText.readResponse(BluetoothPacketText.le16(characteristic.pdu.instanceID)), .controllerToHost, writer)
            }
        }
    }

    /// Entries cut into responses that fit the MTU after the opcode and length bytes.
    private static func pages<Entry>(_ entries: [Entry], entryLength: Int, mtu: Int) -> [ArraySlice<Entry>] {
        let perPage = max(1, (mtu - 2) / entryLength)
        return stride(from: 0, to: entries.count, by: perPage).map { entries[$0..<min($0 + perPage, entries.count)] }
    }

    // MARK: Encrypted traffic

    /// One read, write or event, in proportions like a home's; now and then a longer string
    /// read, which connections with small fragments send in several.
    private mutating func traffic(_ writer: FrameWriter, random: inout SeededRandom) {
        let zone = accessory.device.zones[random.int(in: 0...(accessory.device.zones.count - 1))]
        switch random.int(in: 0...9) {
        case 0...2:
            let iid = [zone.on, zone.brightness, zone.temperature][random.int(in: 0...2)]
            read(iid, value: value(of: iid, &random), writer)
        case 3...4:
            let iid = random.chance(1, in: 2) ? zone.on : zone.brightness
            guard let (characteristic, _) = accessory.characteristic(iid) else { return }
            exchange(.characteristicWrite, characteristic, request: GeneratedPDUAccessory.valueBody(value(of: iid, &random)), writer)
            counts[.characteristicActivities] += 1
        case 5:
            let strings = accessory.services[1].characteristics.filter { $0.pdu.format.format == GeneratedPDUAccessory.stringFormat.format }
            let characteristic = strings[random.int(in: 0...(strings.count - 1))]
            read(characteristic.pdu.instanceID, value: Array(accessory.text(of: characteristic.pdu.type).utf8), writer)
        default:
            // HAP: a connected event is an empty indication; the controller confirms and reads.
            guard let (characteristic, _) = accessory.characteristic(zone.temperature) else { return }
            send(BluetoothPacketText.handleValueIndication(characteristic.valueHandle), .controllerToHost, writer)
            send(BluetoothPacketText.handleValueConfirmation, .hostToController, writer)
            counts[.characteristicActivities] += 1
            read(zone.temperature, value: value(of: zone.temperature, &random), writer)
        }
    }

    private mutating func read(_ iid: UInt16, value: [UInt8], _ writer: FrameWriter) {
        guard let (characteristic, _) = accessory.characteristic(iid) else { return }
        exchange(.characteristicRead, characteristic, response: GeneratedPDUAccessory.valueBody(value), writer)
        counts[.characteristicActivities] += 1
    }

    private func value(of iid: UInt16, _ random: inout SeededRandom) -> [UInt8] {
        guard let zone = accessory.device.zones.first(where: { [$0.on, $0.brightness, $0.temperature].contains(iid) }) else { return [] }
        switch iid {
        case zone.on: return GeneratedPDUAccessory.bool(random.chance(1, in: 2))
        case zone.brightness: return GeneratedPDUAccessory.int32(Int32(random.int(in: 0...100)))
        default: return GeneratedPDUAccessory.float32(Float(random.int(in: 30...60)) / 2)
        }
    }

    // MARK: HAP PDUs over GATT

    /// A pairing write's parameters: the value and HAP-Param-Return-Response (0x09) set, so that
    /// the response carries the next pairing message (HomeKitADK `HAPBLEPDU+TLV.h`).
    private static func returningResponse(_ message: [UInt8]) -> [UInt8] {
        GeneratedPDUAccessory.valueBody(message) + [0x09, 0x01, 0x01]
    }

    /// One HAP transaction on `characteristic`: the request written, the response read, each
    /// PDU in fragments of at most `fragmentLength` bytes, each fragment sealed once the session
    /// is secured. Bodies without bytes have no length field over BLE.
    private mutating func exchange(_ opcode: HAPOpcode, _ characteristic: GeneratedBLEAccessory.Characteristic, request body: [UInt8] = [],
                                   response answer: [UInt8] = [], _ writer: FrameWriter) {
        let tid = nextTID
        nextTID &+= 1
        let request = HAPPDU.request(HAPPDURequest(
            opcode: opcode, transactionID: tid, instanceID: UInt64(characteristic.pdu.instanceID),
            bodyLength: body.isEmpty ? nil : body.count, body: body))
        let response = HAPPDU.response(HAPPDUResponse(
            transactionID: tid, status: .success, bodyLength: answer.isEmpty ? nil : answer.count, body: answer))
        counts[.hapPDUs] += 2
        for fragment in fragments(request) {
            write(Self.sealed(fragment, &toAccessory), to: characteristic.valueHandle, writer)
        }
        for fragment in fragments(response) {
            read(Self.sealed(fragment, &toController), from: characteristic.valueHandle, writer)
        }
    }

    /// The fragment sealed with the direction's stream, or as it is before the session.
    private static func sealed(_ fragment: [UInt8], _ stream: inout SealedMessageStream?) -> [UInt8] {
        guard var sealing = stream else { return fragment }
        defer { stream = sealing }
        return sealing.seal(fragment)
    }

    /// HAP: the first fragment announces the whole body's length; continuations carry the
    /// control field with bit 7 set, the TID and more body bytes (HomeKitADK `HAPBLEPDU.c`).
    private mutating func fragments(_ pdu: HAPPDU) -> [[UInt8]] {
        let whole = pdu.encoded
        guard whole.count > fragmentLength else { return [whole] }
        counts[.fragmentedPDUs] += 1
        var result = [Array(whole.prefix(fragmentLength))]
        var offset = fragmentLength
        while offset < whole.count {
            let end = min(offset + fragmentLength - 2, whole.count)
            result.append([pdu.control.rawValue | 0x80, pdu.transactionID] + whole[offset..<end])
            offset = end
        }
        return result
    }

    /// A GATT write: one Write Request when the value fits ATT_MTU − 3, else Prepare Writes
    /// of ATT_MTU − 5 bytes and an Execute Write (Core Vol 3 Part F §3.4.5, §3.4.6).
    private mutating func write(_ value: [UInt8], to attribute: UInt16, _ writer: FrameWriter) {
        guard value.count > mtu - 3 else {
            send(BluetoothPacketText.writeRequest(attribute, value), .hostToController, writer)
            send(BluetoothPacketText.writeResponse, .controllerToHost, writer)
            return
        }
        counts[.longValues] += 1
        for offset in stride(from: 0, to: value.count, by: mtu - 5) {
            let part = Array(value[offset..<min(offset + mtu - 5, value.count)])
            send(BluetoothPacketText.prepareWriteRequest(attribute, offset: offset, part), .hostToController, writer)
            send(BluetoothPacketText.prepareWriteResponse(attribute, offset: offset, part), .controllerToHost, writer)
        }
        send(BluetoothPacketText.executeWriteRequest, .hostToController, writer)
        send(BluetoothPacketText.executeWriteResponse, .controllerToHost, writer)
    }

    /// A GATT read: a Read Response of at most ATT_MTU − 1 bytes, then Read Blobs while each
    /// part is full (Core Vol 3 Part F §3.4.4.3, §3.4.4.5).
    private mutating func read(_ value: [UInt8], from attribute: UInt16, _ writer: FrameWriter) {
        let part = mtu - 1
        send(BluetoothPacketText.readRequest(attribute), .hostToController, writer)
        send(BluetoothPacketText.readResponse(Array(value.prefix(part))), .controllerToHost, writer)
        guard value.count >= part else { return }
        counts[.longValues] += 1
        var offset = part
        while true {
            let blob = Array(value[offset..<min(offset + part, value.count)])
            send(BluetoothPacketText.readBlobRequest(attribute, offset: offset), .hostToController, writer)
            send(BluetoothPacketText.readBlobResponse(blob), .controllerToHost, writer)
            offset += blob.count
            if blob.count < part { return }
        }
    }

    private mutating func send(_ pdu: [UInt8], _ direction: BluetoothPacketText.Direction, _ writer: FrameWriter) {
        writer.writeFrame(BluetoothPacketText.att(pdu, handle: handle, direction))
        counts[.attPDUs] += 1
        writer.advance(microseconds: Self.attSpacing)
    }
}
