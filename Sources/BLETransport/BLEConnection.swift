import Bluetooth
import HAPCatalog
import HAPCore
import HAPEvents
import HAPJSON
import HAPPDU
import Packets
import TLV8
import WireParsing

/// One whole HAP PDU a connection carried, as the transport decoded it.
package struct BLEPDURecord: Sendable {
    package let connection: ConnectionInfo
    package let direction: HAPDirection
    /// The value handle of the characteristic it was written to or read from.
    package let handle: UInt16
    package let pdu: HAPPDU
    /// Whether its fragments were sealed with the session keys.
    package let encrypted: Bool
    package let packet: PacketInfo
}

/// One LE connection carrying HAP: the GATT database its discovery reveals, the GATT values
/// its ATT operations carry, the HAP PDUs in them (decrypted once a pair-verify or pair-resume
/// secured the session), the pairing procedures, and the characteristic reads and writes.
final class BLEConnection {
    let info: ConnectionInfo
    let handshakeSeen: Bool
    private let context: AnalysisContext
    private(set) var gatt: GATTTable
    private var values: GATTValueAssembler
    private var reassemblers: [HAPDirection: PDUReassembler] = [:]
    private var ciphers: [HAPDirection: BLESessionCipher] = [:]
    private(set) var secured = false
    private var pairing = PairingFollower()
    private var resume = PairResume()
    /// The HAP request waiting for its response (HAP-BLE: one transaction at a time).
    private var outstanding: (request: HAPPDURequest, handle: UInt16, packet: PacketInfo)?
    private var counters = ConnectionSummary.BLECounters(attPDUs: 0, hapPDUs: 0)
    /// Pairing bodies sent in pairing-level fragments (HAP: FragmentData / FragmentLast).
    private var pairingFragments: [HAPDirection: [UInt8]] = [:]
    /// Signature reads by instance ID: what the accessory database is written from.
    private(set) var signatures: [UInt16: HAPCharacteristicSignature] = [:]
    /// The characteristic properties read on earlier connections to the same accessory: a
    /// controller that cached the database reads no signature again.
    private let earlierProperties: [UInt16: HAPCharacteristicProperties]
    /// The values an earlier connection saw, still standing when this one opened (the GSN did
    /// not move in between): each first read here is judged against them.
    private let standingValues: GlobalStateNumberWatch.StandingValues?
    /// The characteristics read, written or notified on this connection: only the first read of
    /// each is judged against the standing values.
    private var observed: Set<UInt16> = []
    /// The last value seen on this connection of each characteristic that notifies in the
    /// disconnected state (one per signature read, so bounded by ble.attributes).
    private(set) var disconnectedNotifyingValues: [UInt16: [UInt8]] = [:]
    /// The configuration number the accessory advertised last before this connection opened.
    let openedUnderConfigurationNumber: UInt8?
    /// What earlier connections read of the database under that configuration number: this
    /// connection's reading must agree with it wherever both read.
    private let earlierReading: ConfigurationNumberWatch.EarlierReading?
    /// The response in which this connection's reading first differed from the earlier one.
    private var databaseDifferedAt: PacketInfo?
    /// The GATT table's revision last compared with the earlier reading (a signature read counts
    /// as one too): a response that taught nothing is not compared again.
    private var comparedRevision: Int?
    private var serviceSignatures: [UInt16: HAPServiceSignature] = [:]
    /// A Timed-Write the accessory accepted, waiting for its Execute-Write.
    private var timedWrite: (iid: UInt16, value: [UInt8]?, packet: PacketInfo)?
    /// The database document last reported, so that it is reported again only when it changed.
    private var reportedDatabase: String?
    let firstPacket: PacketInfo
    private(set) var lastPacket: PacketInfo
    private let onPDU: ((BLEPDURecord) -> Void)?
    /// Told of every Protocol Configuration the accessory answered with success.
    private let onProtocolConfiguration: ((ProtocolConfigurationAnswer, PacketInfo) -> Void)?

    /// What an answered HAP-Protocol-Configuration says of the accessory's broadcast key and GSN.
    struct ProtocolConfigurationAnswer {
        /// The request asked Generate-Broadcast-Encryption-Key: the accessory now holds a new key.
        let generatedBroadcastKey: Bool
        /// HAP-Param-Current-State-Number of a Get-All-Params answer.
        let statedGSN: UInt16?
    }

    init(
        info: ConnectionInfo, handshakeSeen: Bool, packet: PacketInfo, context: AnalysisContext,
        earlierProperties: [UInt16: HAPCharacteristicProperties] = [:], standingValues: GlobalStateNumberWatch.StandingValues? = nil,
        openedUnderConfigurationNumber: UInt8? = nil, earlierReading: ConfigurationNumberWatch.EarlierReading? = nil,
        onPDU: ((BLEPDURecord) -> Void)?, onProtocolConfiguration: ((ProtocolConfigurationAnswer, PacketInfo) -> Void)? = nil
    ) {
        self.info = info
        self.onProtocolConfiguration = onProtocolConfiguration
        self.earlierProperties = earlierProperties
        self.standingValues = standingValues
        self.openedUnderConfigurationNumber = openedUnderConfigurationNumber
        self.earlierReading = earlierReading
        self.handshakeSeen = handshakeSeen
        self.context = context
        self.onPDU = onPDU
        gatt = GATTTable(maximumAttributes: context.limits.ble.maximumAttributes)
        values = GATTValueAssembler(maximumValueLength: context.limits.ble.maximumGATTValueLength)
        firstPacket = packet
        lastPacket = packet
    }

    var deviceID: String? { pairing.accessoryID }

    // MARK: ATT

    /// Takes one ATT PDU of this connection.
    func process(_ pdu: ATTPDU, direction: HAPDirection, offset: Int, packet: PacketInfo) {
        lastPacket = packet
        counters.attPDUs += 1
        let oversize = values.oversizeValues
        let overflowed = gatt.overflowed
        defer {
            if values.oversizeValues > oversize {
                context.limitReached(.bleGATTValue, "a GATT value longer than the ble.gatt-value limit: it was dropped", packet)
            }
            if gatt.overflowed, !overflowed {
                context.limitReached(.bleAttributes, "more GATT attributes than the ble.attributes limit: the rest were ignored", packet)
            }
        }
        if pdu.opcode.isRequest(from: direction) {
            for value in values.request(pdu) { take(value, offset: offset, packet: packet) }
            return
        }
        switch pdu {
        case .handleValueIndication(let handle, let value), .handleValueNotification(let handle, let value):
            indicated(handle: handle, value: value, packet: packet)
        case .handleValueConfirmation:
            break
        default:
            let (request, completed) = values.response(pdu)
            if let request {
                gatt.learn(request: request, response: pdu)
                compareDatabase(packet: packet)
            }
            for value in completed { take(value, offset: offset, packet: packet) }
        }
    }

    /// HAP: a zero-length indication on a characteristic says its value changed (connected
    /// event); the controller then reads it (HomeKitADK HAPBLEPeripheralManager.c).
    private func indicated(handle: UInt16, value: [UInt8], packet: PacketInfo) {
        guard let type = gatt.hapType(valueHandle: handle) else { return }
        let iid = gatt.characteristic(valueHandle: handle)?.instanceID
        // A connected event announces the change: the read that follows is not judged.
        if let iid, observed.count < gatt.maximumAttributes { observed.insert(iid) }
        context.emit(.characteristic(activity(.event, iid: iid, type: type, value: nil, packet: packet, requestPacket: nil)), packet)
    }

    /// HAP: a controller subscribes to a characteristic's events by enabling indications in its
    /// Client Characteristic Configuration descriptor (Core Vol 3 Part G §3.3.3.3: bit 0
    /// notifications, bit 1 indications), and unsubscribes by clearing them.
    private func configured(_ valueHandle: UInt16, _ bytes: [UInt8], packet: PacketInfo) {
        guard let type = gatt.hapType(valueHandle: valueHandle), let flags = bytes.first else { return }
        let iid = gatt.characteristic(valueHandle: valueHandle)?.instanceID
        let kind: CharacteristicActivity.Kind = flags & 0x03 != 0 ? .subscribe : .unsubscribe
        context.emit(.characteristic(activity(kind, iid: iid, type: type, value: nil, packet: packet, requestPacket: nil)), packet)
    }

    // MARK: GATT values and HAP PDUs

    private func take(_ value: GATTValueAssembler.Value, offset: Int, packet: PacketInfo) {
        let (direction, handle, bytes): (HAPDirection, UInt16, [UInt8]) = switch value {
        case .written(let handle, let bytes): (.controllerToAccessory, handle, bytes)
        case .read(let handle, let bytes): (.accessoryToController, handle, bytes)
        }
        if direction == .controllerToAccessory, let valueHandle = gatt.configurationDescriptors[handle] {
            configured(valueHandle, bytes, packet: packet)
            return
        }
        // Only HAP characteristics carry PDUs; an empty read is a characteristic with nothing to say.
        guard gatt.hapType(valueHandle: handle) != nil, !bytes.isEmpty else { return }
        var plaintext = bytes
        var sealed = false
        if secured {
            guard let opened = open(bytes, direction: direction, offset: offset, packet: packet) else { return }
            (plaintext, sealed) = opened
            if sealed, context.configuration.emitsDecryptedData {
                context.emit(.decryptedData(DecryptedDataEvent(connection: info, direction: direction, plaintext: plaintext)), packet)
            }
        }
        var cursor = ByteCursor(plaintext.span.bytes, layer: .hapPDU, baseOffset: offset)
        let fragment: HAPPDU
        do {
            fragment = try HAPPDU(parsing: &cursor)
        } catch {
            problem("packet \(packet.number): \(error)", direction: direction, packet: packet)
            return
        }
        var reassembler = reassemblers[direction] ?? PDUReassembler(limits: PDUReassemblyLimits(
            maximumBodyLength: context.limits.ble.maximumPDUBodyLength, maximumPendingPDUs: 8))
        let result = reassembler.add(fragment, offset: offset)
        reassemblers[direction] = reassembler
        for error in result.problems {
            if error.code == .limitExceeded {
                context.limitReached(.blePDUBody, "packet \(packet.number): \(error)", packet)
            } else {
                problem("packet \(packet.number): \(error)", direction: direction, packet: packet)
            }
        }
        guard let pdu = result.pdu else { return }
        onPDU?(BLEPDURecord(connection: info, direction: direction, handle: handle, pdu: pdu, encrypted: sealed, packet: packet))
        switch pdu {
        case .request(let request): requested(request, handle: handle, packet: packet)
        case .response(let response): answered(response, packet: packet)
        case .continuation: break
        }
    }

    /// Opens a sealed value with the direction's key, and whether it was sealed; reports a value
    /// that does not open, and decodes one that is a plaintext PDU answering the request.
    private func open(_ sealed: [UInt8], direction: HAPDirection, offset: Int, packet: PacketInfo) -> (bytes: [UInt8], sealed: Bool)? {
        guard var cipher = ciphers[direction] else { return nil }
        defer { ciphers[direction] = cipher }
        switch cipher.open(sealed) {
        case .opened(let plaintext, _):
            return (plaintext, true)
        case .openedAfterSkip(let plaintext, let counter, let skipped):
            sessionProblem(.counterSkipped, direction: direction, counter: counter, packet: packet,
                           "packet \(packet.number): the value was sealed with counter \(counter), \(skipped) after the \(counter - skipped) due")
            return (plaintext, true)
        case .openedWithReusedCounter(let plaintext, let counter):
            sessionProblem(.counterReused, direction: direction, counter: counter, packet: packet,
                           "packet \(packet.number): the value was sealed with counter \(counter), already used")
            return (plaintext, true)
        case .failed(let due):
            var cursor = ByteCursor(sealed.span.bytes, layer: .hapPDU, baseOffset: offset)
            if let plain = try? HAPPDU(parsing: &cursor), plain.transactionID == outstanding?.request.transactionID {
                sessionProblem(.plaintextAfterEncryption, direction: direction, counter: due, packet: packet,
                               "packet \(packet.number): a plaintext PDU (TID \(plain.transactionID)) after the session was secured")
                return (sealed, false)
            } else {
                sessionProblem(.authenticationFailed, direction: direction, counter: due, packet: packet,
                               "packet \(packet.number): the \(sealed.count)-byte value does not open with counter \(due) (nor the \(cipher.skipWindow) after it)")
            }
            return nil
        }
    }

    private func requested(_ request: HAPPDURequest, handle: UInt16, packet: PacketInfo) {
        counters.hapPDUs += 1
        outstanding = (request, handle, packet)
        guard let procedure = pairingProcedure(handle), request.opcode == .characteristicWrite else { return }
        followPairing(procedure, request.body, direction: .controllerToAccessory, packet: packet)
    }

    private func answered(_ response: HAPPDUResponse, packet: PacketInfo) {
        counters.hapPDUs += 1
        guard let (request, handle, requestPacket) = outstanding else {
            problem("packet \(packet.number): a HAP response (TID \(response.transactionID)) with no request waiting",
                    direction: .accessoryToController, packet: packet)
            return
        }
        outstanding = nil
        if response.transactionID != request.transactionID {
            // aiohomekit 4.0.1 drops the connection ("Expected transaction …", captures/ble/README.md).
            sessionProblem(.transactionMismatch, direction: .accessoryToController, counter: nil, packet: packet,
                           "packet \(packet.number): the response has TID \(response.transactionID), the request (packet \(requestPacket.number)) TID \(request.transactionID)")
        }
        if let procedure = pairingProcedure(handle) {
            followPairing(procedure, response.body, direction: .accessoryToController, packet: packet)
            return
        }
        if request.opcode == .characteristicSignatureRead || request.opcode == .serviceSignatureRead {
            signatureRead(request, response, packet: packet)
            return
        }
        if request.opcode == .protocolConfiguration {
            protocolConfiguration(request, response, packet: packet)
            return
        }
        guard let type = gatt.hapType(valueHandle: handle) else { return }
        let iid = UInt16(truncatingIfNeeded: request.instanceID)
        let status = HAPStatus(pduStatus: response.status, answering: request.opcode)
        let pduStatus = response.status == .success ? nil : response.status
        switch request.opcode {
        case .characteristicRead:
            emitActivity(.read, iid: iid, type: type, value: response.status == .success ? Self.parameters(response.body)?.value : nil,
                         status: status, pduStatus: pduStatus, packet: packet, requestPacket: requestPacket,
                         servedWithoutRequiredSession: servedWithoutSession(response, iid: iid, open: .readable, secure: .supportsSecureReads))
        case .characteristicWrite:
            emitActivity(.write, iid: iid, type: type, value: Self.parameters(request.body)?.value, status: status, pduStatus: pduStatus, packet: packet,
                         requestPacket: requestPacket,
                         servedWithoutRequiredSession: servedWithoutSession(response, iid: iid, open: .writable, secure: .supportsSecureWrites))
        case .characteristicTimedWrite:
            // HAP: HAP-Characteristic-Timed-Write carries the value; the Execute-Write that
            // follows commits it (HomeKitADK HAPBLEProcedure.c).
            timedWrite = response.status == .success ? (iid, Self.parameters(request.body)?.value, requestPacket) : nil
        case .characteristicExecuteWrite:
            guard let pending = timedWrite, pending.iid == iid else { return }
            timedWrite = nil
            emitActivity(.write, iid: iid, type: type, value: pending.value, status: status, pduStatus: pduStatus, packet: packet, requestPacket: pending.packet,
                         timedWrite: true)
        default:
            break
        }
    }

    private func emitActivity(
        _ kind: CharacteristicActivity.Kind, iid: UInt16, type: HAPUUID, value: [UInt8]?, status: HAPJSON.HAPStatus?, pduStatus: HAPPDUStatus?, packet: PacketInfo,
        requestPacket: PacketInfo, timedWrite: Bool = false, servedWithoutRequiredSession: Bool = false
    ) {
        let succeeded = status == nil && pduStatus == nil
        let change = kind == .read && succeeded ? unannouncedChange(iid: iid, type: type, value: value) : nil
        if succeeded, let value { saw(value, iid: iid) }
        context.emit(.characteristic(activity(kind, iid: iid, type: type, value: value, status: status, pduStatus: pduStatus, packet: packet,
                                              requestPacket: requestPacket, timedWrite: timedWrite,
                                              servedWithoutRequiredSession: servedWithoutRequiredSession, unannouncedChange: change)), packet)
    }

    /// The properties the accessory declared for `iid`, on this connection or an earlier one.
    private func properties(_ iid: UInt16) -> HAPCharacteristicProperties? {
        signatures[iid]?.properties ?? earlierProperties[iid]
    }

    /// The first read of a characteristic that notifies in the disconnected state, finding
    /// another value than the one standing from the earlier connection (HAP: disconnected events).
    private func unannouncedChange(iid: UInt16, type: HAPUUID, value: [UInt8]?) -> UnannouncedValueChange? {
        guard let standingValues, let value, !observed.contains(iid),
              properties(iid)?.contains(.notifiesEventsInDisconnectedState) == true,
              let earlier = standingValues.values[iid], earlier != value else { return nil }
        return UnannouncedValueChange(
            earlierConnection: standingValues.earlierConnection, earlierValue: BLECharacteristicValue.interpret(earlier, as: format(iid, type: type)),
            globalStateNumber: standingValues.globalStateNumber, advertisementPacket: standingValues.advertisementPacket)
    }

    /// Remembers a value read or written on this connection.
    private func saw(_ value: [UInt8], iid: UInt16) {
        guard observed.count < gatt.maximumAttributes else { return }
        observed.insert(iid)
        if properties(iid)?.contains(.notifiesEventsInDisconnectedState) == true { disconnectedNotifyingValues[iid] = value }
    }

    /// Whether the accessory served a read or write with success on an unsecured connection where
    /// the characteristic's properties allow only the `secure` kind of it, not the `open` one
    /// (HomeKitADK HAPBLEProcedure.c: such a request is answered Insufficient Authentication).
    private func servedWithoutSession(
        _ response: HAPPDUResponse, iid: UInt16, open: HAPCharacteristicProperties, secure: HAPCharacteristicProperties
    ) -> Bool {
        guard !secured, response.status == .success, let properties = properties(iid) else { return false }
        return properties.contains(secure) && !properties.contains(open)
    }

    /// HAP: HAP-Characteristic-Signature-Read and HAP-Service-Signature-Read, whose responses
    /// hold the TLVs the database is written from.
    private func signatureRead(_ request: HAPPDURequest, _ response: HAPPDUResponse, packet: PacketInfo) {
        guard response.status == .success, signatures.count + serviceSignatures.count < gatt.maximumAttributes else { return }
        let iid = UInt16(truncatingIfNeeded: request.instanceID)
        var cursor = ByteCursor(response.body.span.bytes, layer: .hapPDU)
        do throws(DecodeError) {
            if request.opcode == .characteristicSignatureRead {
                signatures[iid] = try HAPCharacteristicSignature(parsing: &cursor)
            } else {
                serviceSignatures[iid] = try HAPServiceSignature(parsing: &cursor)
            }
            comparedRevision = nil
            compareDatabase(packet: packet)
        } catch {
            problem("packet \(packet.number): the signature of instance \(iid): \(error)", direction: .accessoryToController, packet: packet)
        }
    }

    /// What this connection read of the accessory's GATT database; nil past the ble.attributes
    /// limit, where what was read is not all that was listed.
    var databaseReading: GATTDatabaseReading? {
        gatt.overflowed ? nil : GATTDatabaseReading(table: gatt, signatures: signatures)
    }

    /// Notes the first response after which this connection's reading differs from the earlier
    /// readings under the same configuration number.
    private func compareDatabase(packet: PacketInfo) {
        guard let earlierReading, databaseDifferedAt == nil, gatt.revision != comparedRevision else { return }
        comparedRevision = gatt.revision
        guard let reading = databaseReading, reading.differs(from: earlierReading.reading) else { return }
        databaseDifferedAt = packet
    }

    /// The database change this connection found, with every difference of its whole reading.
    private var unannouncedDatabaseChange: UnannouncedDatabaseChange? {
        guard let earlierReading, let packet = databaseDifferedAt,
              let changes = databaseReading?.changes(since: earlierReading.reading), !changes.isEmpty else { return nil }
        return UnannouncedDatabaseChange(
            deviceID: earlierReading.deviceID, earlierConnection: earlierReading.connection,
            configurationNumber: earlierReading.configurationNumber, advertisementPacket: earlierReading.advertisementPacket,
            packet: packet, changes: changes)
    }

    /// HAP-Protocol-Configuration (HomeKitADK HAPBLEProtocol+Configuration.c): a generated
    /// broadcast key and the GSN a Get-All-Params answer states go to the transport, which judges
    /// the key's lifetime when a notification opens.
    private func protocolConfiguration(_ request: HAPPDURequest, _ response: HAPPDUResponse, packet: PacketInfo) {
        guard response.status == .success else { return }
        var requestCursor = ByteCursor(request.body.span.bytes, layer: .hapPDU)
        var responseCursor = ByteCursor(response.body.span.bytes, layer: .hapPDU)
        do throws(DecodeError) {
            let asked = try HAPProtocolConfigurationRequest(parsing: &requestCursor)
            let answer = try HAPProtocolConfigurationResponse(parsing: &responseCursor)
            onProtocolConfiguration?(ProtocolConfigurationAnswer(
                generatedBroadcastKey: asked.generatesBroadcastKey, statedGSN: answer.currentStateNumber), packet)
        } catch {
            problem("packet \(packet.number): the Protocol Configuration (TID \(request.transactionID)): \(error)",
                    direction: .accessoryToController, packet: packet)
        }
    }

    /// Reports the accessory database learnt so far, when it is new or changed, and stores it
    /// for the run (`AccessoryDatabases`).
    private func reportDatabase(packet: PacketInfo) {
        guard let document = BLEAccessoryDatabase.document(table: gatt, signatures: signatures, serviceSignatures: serviceSignatures),
              document != reportedDatabase else { return }
        reportedDatabase = document
        let body = Array(document.utf8)
        let key = deviceID?.uppercased() ?? info.accessory.description
        let previous = context.databases[key]?.database
        do throws(DecodeError) {
            let database = try AccessoryDatabase(bytes: body)
            context.databases.store(database, body: body, for: key, accessory: info.accessory, input: context.currentInput)
            context.emit(.accessoryDatabase(AccessoryDatabaseEvent(
                connection: info, deviceID: deviceID, database: database, error: nil,
                diff: previous.map { AccessoryDatabaseDiff(from: $0, to: database) }, bodyByteCount: body.count)), packet)
        } catch {
            context.emit(.accessoryDatabase(AccessoryDatabaseEvent(
                connection: info, deviceID: deviceID, database: nil, error: error, diff: nil, bodyByteCount: body.count)), packet)
        }
    }

    private func activity(
        _ kind: CharacteristicActivity.Kind, iid: UInt16?, type: HAPUUID, value: [UInt8]?, status: HAPJSON.HAPStatus? = nil, pduStatus: HAPPDUStatus? = nil,
        packet: PacketInfo,
        requestPacket: PacketInfo?, timedWrite: Bool = false, servedWithoutRequiredSession: Bool = false,
        unannouncedChange: UnannouncedValueChange? = nil
    ) -> CharacteristicActivity {
        let definition = HAPCatalog.characteristic(type)
        let format = format(iid, type: type)
        // HAP-BLE accessories hold one accessory, instance 1 (HAP: HAP-BLE accessory attribute database).
        return CharacteristicActivity(
            connection: info, deviceID: deviceID, kind: kind, id: CharacteristicID(aid: 1, iid: UInt64(iid ?? 0)), type: type,
            name: definition?.name, unit: definition?.unit, format: format,
            value: value.map { BLECharacteristicValue.interpret($0, as: format) },
            status: status, timedWrite: timedWrite,
            requestPacket: requestPacket, servedWithoutRequiredSession: servedWithoutRequiredSession, pduStatus: pduStatus,
            unannouncedChange: unannouncedChange)
    }

    /// The format the accessory declared in its signature, else the catalogue's.
    private func format(_ iid: UInt16?, type: HAPUUID) -> CharacteristicFormat? {
        iid.flatMap { signatures[$0]?.presentationFormat?.characteristicFormat } ?? HAPCatalog.characteristic(type)?.format
    }

    private static func parameters(_ body: [UInt8]) -> HAPPDUParameters? {
        var cursor = ByteCursor(body.span.bytes, layer: .hapPDU)
        return try? HAPPDUParameters(parsing: &cursor)
    }

    // MARK: Pairing

    // HAP: Pair Setup 0x4C, Pair Verify 0x4E, Pairing Pairings 0x50 (HAP-BLE Pairing service).
    private func pairingProcedure(_ handle: UInt16) -> PairingProcedure? {
        switch gatt.characteristic(valueHandle: handle)?.type.hapShortForm {
        case 0x4C?: .pairSetup
        case 0x4E?: .pairVerify
        case 0x50?: .pairings
        default: nil
        }
    }

    /// Hands one pairing body (the Value parameter of the PDU) to the pairing follower, joining
    /// pairing-level fragments first (HAP: FragmentData 0x0C, FragmentLast 0x0D; an empty
    /// FragmentData is the other side's acknowledgement).
    private func followPairing(_ procedure: PairingProcedure, _ pduBody: [UInt8], direction: HAPDirection, packet: PacketInfo) {
        guard let bytes = Self.parameters(pduBody)?.value else { return }
        var cursor = ByteCursor(bytes.span.bytes, layer: .tlv8)
        let items = TLV8Body(parsingLeniently: &cursor)
        var body = bytes
        if let fragment = items.first(.fragmentData) {
            if fragment.value.isEmpty { return }
            guard (pairingFragments[direction]?.count ?? 0) + fragment.value.count <= context.limits.ble.maximumPDUBodyLength else {
                pairingFragments[direction] = nil
                context.limitReached(.blePDUBody, "packet \(packet.number): pairing fragments longer than the ble.pdu-body limit", packet)
                return
            }
            pairingFragments[direction, default: []] += fragment.value
            return
        }
        if let last = items.first(.fragmentLast) {
            body = (pairingFragments[direction] ?? []) + last.value
            pairingFragments[direction] = nil
        }
        var wholeCursor = ByteCursor(body.span.bytes, layer: .tlv8)
        let whole = TLV8Body(parsingLeniently: &wholeCursor)
        if procedure == .pairVerify {
            // A pair-resume is no pair-verify: its M2 holds no sub-TLV to open, and it ends the
            // procedure. It is followed here, not by the pairing follower.
            if direction == .controllerToAccessory {
                resume.request(whole)
                if resume.pendingControllerKey != nil { return }
            } else if resume.pendingControllerKey != nil {
                if let key = resume.response(whole) { resumed(key, packet: packet) }
                return
            }
        }
        if let start = pairing.follow(procedure, direction: direction, body: body.span.bytes, packet: packet, connection: info, context: context) {
            startSession(start.trigger, keys: start.keys, source: start.source, missingKeys: start.missingKeys, packet: packet)
        }
    }

    /// A pair-resume M2 accepted the resume whose M1 carried `resumedKey`: the session is secured
    /// with the keys the key log gives for it.
    private func resumed(_ resumedKey: [UInt8], packet: PacketInfo) {
        context.keyLogSessions.claim(resumedKey)
        let secrets = SessionKeyResolver.resolve(keyLog: context.keyLog, controllerKey: resumedKey, accessoryKey: nil)
        startSession(.pairResume, keys: secrets?.session ?? .none, source: secrets?.source,
                     missingKeys: secrets == nil ? .noKeyLogEntry(controllerEphemeralKey: resumedKey) : nil, packet: packet)
    }

    /// From the value after the one that ended pair-verify (or pair-resume), every value is sealed.
    private func startSession(
        _ trigger: SessionStartEvent.Trigger, keys: DirectionalSessionKeys, source: KeySource?,
        missingKeys: SessionStartEvent.UndecryptableReason?, packet: PacketInfo
    ) {
        reportDatabase(packet: packet)
        secured = true
        var decryptable: Set<HAPDirection> = []
        for direction in [HAPDirection.controllerToAccessory, .accessoryToController] {
            guard let key = keys[direction] else { continue }
            ciphers[direction] = BLESessionCipher(key: key)
            decryptable.insert(direction)
        }
        var missing = missingKeys
        if missing == nil, decryptable.count == 1, let only = decryptable.first { missing = .onlyOneDirection(only) }
        context.emit(.sessionStarted(SessionStartEvent(
            connection: info, trigger: trigger, decryptable: decryptable, keySource: source, undecryptableBecause: missing)), packet)
    }

    // MARK: The end

    /// Closes the connection: what was still being joined is reported, the pairing exchange in
    /// progress ends.
    func close(reason: ConnectionCloseReason, disconnectionReason: HCIStatus? = nil, offset: Int, packet: PacketInfo?) {
        let end = packet ?? lastPacket
        for value in values.finish() { take(value, offset: offset, packet: end) }
        for (direction, var reassembler) in reassemblers {
            for error in reassembler.finish(offset: offset) { problem("\(error)", direction: direction, packet: end) }
        }
        pairing.finish(at: end, connection: info, context: context)
        reportDatabase(packet: end)
        context.emit(.connectionClosed(ConnectionSummary(
            connection: info, deviceID: deviceID, reason: reason, handshakeSeen: handshakeSeen, firstPacket: firstPacket,
            lastPacket: end, tcp: [:], frames: [:], encrypted: secured, decrypted: Set(ciphers.keys),
            carried: .bluetoothLE(counters), disconnectionReason: disconnectionReason,
            unannouncedDatabaseChange: unannouncedDatabaseChange)), end)
    }

    private func problem(_ message: String, direction: HAPDirection, packet: PacketInfo) {
        context.emit(.problem(CaptureProblem(.undecodableBLE, message, connection: info, direction: direction)), packet)
    }

    private func sessionProblem(_ kind: SessionProblemEvent.Kind, direction: HAPDirection, counter: UInt64?, packet: PacketInfo, _ message: String) {
        context.emit(.sessionProblem(SessionProblemEvent(
            connection: info, direction: direction, kind: kind, frameCounter: counter, message: message)), packet)
    }
}

extension CaptureProblem.Kind {
    /// An HCI, L2CAP, ATT or HAP PDU the Bluetooth LE transport could not decode.
    package static let undecodableBLE = CaptureProblem.Kind(rawValue: "undecodable-ble")
}

extension ATTOpcode {
    /// Whether a PDU with this opcode, sent in `direction`, is a client's request or command
    /// (the HAP controller is the GATT client).
    func isRequest(from direction: HAPDirection) -> Bool {
        guard direction == .controllerToAccessory else { return false }
        return self != .handleValueConfirmation
    }
}
