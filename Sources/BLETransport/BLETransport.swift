import Bluetooth
import HAPCatalog
import HAPCore
import HAPCrypto
import HAPEvents
import HAPJSON
import HAPPDU
import Packets
import WireParsing

/// HAP over Bluetooth LE: HCI packets (from LINKTYPE_BLUETOOTH_HCI_H4_WITH_PHDR, the Linux
/// monitor, btsnoop and PacketLogger files) decoded down to ATT on each LE connection, where
/// `BLEConnection` rebuilds GATT and follows HAP.
///
/// LE Connection Complete events tie connection handles to the peer's address and say which
/// role the capturing host played: a central is the HAP controller (HAP-BLE: the accessory is
/// the peripheral), so the host's own packets go from controller to accessory. ACL fragments are
/// joined per handle and direction (`ACLReassembler`); only the ATT channel (CID 0x0004)
/// carries HAP. Everything it learns leaves as events through the shared `AnalysisContext`.
package final class BLETransport {
    private let context: AnalysisContext
    private var reassembler: ACLReassembler
    private var connections: [UInt16: (connection: BLEConnection, hostIsController: Bool)] = [:]
    private var connectionOrder: [UInt16] = []
    /// The capturing host's own address, once a command or its completion names it.
    private var localAddress: BluetoothAddress?
    /// The characteristic properties each accessory's signature reads gave, kept from one
    /// connection to the next (for as many accessories as the ble.connections limit allows).
    private var propertiesByAccessory: [PeerAddress: [UInt16: HAPCharacteristicProperties]] = [:]
    private var accessoryOrder: [PeerAddress] = []
    private var advertisements: BLEAdvertisementTracker
    private var broadcasts: BroadcastNotificationOpener
    private var globalStateNumbers: GlobalStateNumberWatch
    private var configurationNumbers: ConfigurationNumberWatch
    private var broadcastKeys: BroadcastKeyLifetimeWatch
    /// Advertisers whose encrypted notifications could not be opened, said once each.
    private var unopenedBroadcastsReported: Set<BluetoothAddress> = []
    /// The latest LE connection to each accessory: a broadcast notification is attributed to it
    /// (the session that generated the broadcast key ran on one of its connections).
    private var latestConnectionByAccessory: [PeerAddress: ConnectionInfo] = [:]
    /// Receives every whole HAP PDU: the tests read the story through it.
    package var onPDU: ((BLEPDURecord) -> Void)?

    // Core Vol 4 Part E §7.8.4 LE Set Random Address; §7.4.6 Read BD_ADDR.
    private static let leSetRandomAddress = HCIOpcode(group: 0x08, command: 0x0005)
    private static let readBDAddress = HCIOpcode(group: 0x04, command: 0x0009)
    private static let unknownAddress = BluetoothAddress(wireBytes: [0, 0, 0, 0, 0, 0])

    package init(context: AnalysisContext) {
        self.context = context
        reassembler = ACLReassembler(limits: context.limits.ble.acl)
        advertisements = BLEAdvertisementTracker(maximumAdvertisers: context.limits.ble.maximumAdvertisers)
        broadcasts = BroadcastNotificationOpener(
            keys: context.keyLog.broadcastKeys, gsnSearch: context.limits.ble.broadcastGSNSearch,
            maximumAccessories: context.limits.ble.maximumAdvertisers)
        globalStateNumbers = GlobalStateNumberWatch(maximumAccessories: context.limits.ble.maximumAdvertisers)
        configurationNumbers = ConfigurationNumberWatch(maximumAccessories: context.limits.ble.maximumAdvertisers)
        broadcastKeys = BroadcastKeyLifetimeWatch(maximumAccessories: context.limits.ble.maximumAdvertisers)
    }

    /// Takes one frame of a Bluetooth link type.
    package func process(_ bytes: UnsafeRawBufferPointer, linkType: BluetoothLinkType, packet: PacketInfo) {
        let span = unsafe RawSpan(_unsafeBytes: bytes)
        var cursor = ByteCursor(span, layer: .bluetoothLink)
        do throws(DecodeError) {
            guard case .packet(let direction, let indicator, _) = try HCIFrame(parsing: &cursor, linkType: linkType) else { return }
            let offset = cursor.offset
            var hci = ByteCursor(cursor.readRemaining(), layer: .hci, baseOffset: offset)
            switch indicator {
            case .event: event(try HCIEvent(parsing: &hci), packet: packet, offset: offset)
            case .command: command(try HCICommand(parsing: &hci))
            case .aclData: try aclData(&hci, direction: direction, packet: packet)
            default: break
            }
        } catch {
            problem("packet \(packet.number): \(error)", packet: packet)
        }
    }

    // MARK: HCI

    private func command(_ command: HCICommand) {
        if command.opcode == Self.leSetRandomAddress, command.parameters.count == 6 {
            localAddress = BluetoothAddress(wireBytes: command.parameters)
        }
    }

    private func event(_ event: HCIEvent, packet: PacketInfo, offset: Int) {
        switch event.content {
        case .leMeta(.connectionComplete(let complete)) where complete.status == .success:
            if connections[complete.handle] != nil { close(complete.handle, reason: .superseded, offset: offset, packet: packet) }
            open(complete.handle, peer: complete.peerAddress, hostIsController: complete.isCentral, handshakeSeen: true, packet: packet)
        case .leMeta(.advertisingReports(let reports)):
            for report in reports { advertised(report.data, from: report.address, packet: packet) }
        case .leMeta(.extendedAdvertisingReports(let reports)):
            // Data still to come in another report (status 1) or cut short (2) is not whole.
            for report in reports where report.dataStatus == 0 { advertised(report.data, from: report.address, packet: packet) }
        case .disconnectionComplete(let disconnection) where disconnection.status == .success:
            close(disconnection.handle, reason: .closed, disconnectionReason: disconnection.reason, offset: offset, packet: packet)
        case .commandComplete(let complete) where complete.opcode == Self.readBDAddress:
            // Return parameters: status (1), BD_ADDR (6).
            if complete.returnParameters.count == 7, complete.returnParameters[0] == 0 {
                localAddress = BluetoothAddress(wireBytes: Array(complete.returnParameters[1...]))
            }
        default:
            break
        }
    }

    // MARK: Advertisements

    /// HAP-BLE: an accessory advertises in Apple manufacturer data (company 0x004C); other Apple
    /// types (iBeacon, AirPlay, …) are not HomeKit's and are passed over.
    private func advertised(_ data: AdvertisingData, from advertiser: BluetoothAddress, packet: PacketInfo) {
        for structure in data.structures where structure.type == .manufacturerSpecificData && structure.data.count >= 2 {
            guard UInt16(structure.data[0]) | UInt16(structure.data[1]) << 8 == HAPBLEAdvertisement.appleCompanyID else { continue }
            // The length byte, the AD type and the company identifier come before the Apple data.
            let bytes = Array(structure.data[2...])
            var cursor = ByteCursor(bytes.span.bytes, layer: .hapPDU, baseOffset: structure.offset + 4)
            let advertisement: HAPBLEAdvertisement
            do throws(DecodeError) {
                advertisement = try HAPBLEAdvertisement(manufacturerData: &cursor)
            } catch {
                if error.code != .unsupported { problem("packet \(packet.number): the HomeKit advertisement from \(advertiser): \(error)", packet: packet) }
                continue
            }
            if case .regular(let regular) = advertisement {
                broadcastKeys.stated(regular.globalStateNumber, by: advertiser, packet: packet)
            }
            let forgotten = advertisements.forgotten
            let sighting = advertisements.observe(advertisement, from: advertiser, packet: packet)
            if advertisements.forgotten > forgotten {
                context.limitReached(.bleAdvertisers, "more HomeKit advertisers than the ble.advertisers limit: the oldest was forgotten", packet)
            }
            guard case .new(let previous) = sighting else { continue }
            var setupHash: SetupHashCheck?
            var broadcast: BLEBroadcastDecryption?
            var keyLifetime: BLEBroadcastKeyLifetime?
            switch advertisement {
            case .regular(let regular):
                broadcasts.advertised(globalStateNumber: regular.globalStateNumber, deviceID: regular.deviceIDText)
                if let advertised = regular.setupHash, let setupID = context.configuration.setupID {
                    let deviceID = regular.deviceIDText
                    setupHash = SetupHashCheck(setupID: setupID.text, deviceID: deviceID,
                                               expected: SetupHash(setupID: setupID, deviceID: deviceID).bytes, advertised: advertised)
                }
            case .encryptedNotification(let notification):
                broadcast = broadcasts.open(notification)
                if case .opened(_, let gsn, _, _)? = broadcast { keyLifetime = broadcastKeys.notification(gsn, from: advertiser) }
            }
            context.emit(.bleAdvertisement(BLEAdvertisementEvent(
                advertiser: advertiser, advertisement: advertisement, previous: previous, setupHash: setupHash, broadcast: broadcast,
                broadcastKeyLifetime: keyLifetime)), packet)
            if let broadcast { broadcasted(broadcast, from: advertiser, packet: packet) }
        }
    }

    /// An opened broadcast notification is the accessory's event of that characteristic; one
    /// that would not open is said once per advertiser.
    private func broadcasted(_ broadcast: BLEBroadcastDecryption, from advertiser: BluetoothAddress, packet: PacketInfo) {
        guard case .opened(let deviceID, let gsn, let iid, let value) = broadcast else {
            guard unopenedBroadcastsReported.count < context.limits.ble.maximumAdvertisers,
                  unopenedBroadcastsReported.insert(advertiser).inserted else { return }
            let why = broadcast == .noKey ? "the key log holds no BROADCAST_KEY"
                : "no BROADCAST_KEY of the key log opens them under the GSNs tried"
            problem("packet \(packet.number): encrypted notifications from \(advertiser) not opened: \(why)", packet: packet)
            return
        }
        advertisements.opened(globalStateNumber: gsn, from: advertiser, packet: packet)
        let accessory = PeerAddress.bluetooth(advertiser)
        // Without an LE connection to the accessory in the capture, connection 0 stands for none.
        let connection = latestConnectionByAccessory[accessory] ?? ConnectionInfo(
            id: 0, transport: .bluetoothLE(connectionHandle: 0), controller: .bluetooth(localAddress ?? Self.unknownAddress), accessory: accessory)
        let id = CharacteristicID(aid: 1, iid: UInt64(iid))
        let characteristic = context.databases.found(deviceID: deviceID, accessory: accessory, input: context.currentInput)?.database.characteristic(id)
        let type = characteristic?.type
        let definition = type.flatMap { HAPCatalog.characteristic($0) }
        let format = characteristic?.metadata.format ?? definition?.format
        // HAP: the value is sent in the format's binary form, zero-padded to 8 bytes.
        let bytes = format.flatMap(BLECharacteristicValue.byteCount).map { Array(value.prefix($0)) } ?? value
        context.emit(.characteristic(CharacteristicActivity(
            connection: connection, deviceID: deviceID, kind: .event, id: id, type: type, name: characteristic?.name ?? definition?.name,
            unit: definition?.unit, format: format, value: BLECharacteristicValue.interpret(bytes, as: format))), packet)
    }

    // MARK: ACL, L2CAP, ATT

    private func aclData(_ cursor: inout ByteCursor, direction: HCIDirection, packet: PacketInfo) throws(DecodeError) {
        let header = try ACLDataHeader(parsing: &cursor)
        let offset = cursor.offset
        let fragment = cursor.readRemaining()
        let result = reassembler.add(header, direction: direction, fragment: fragment, offset: offset)
        for error in result.problems { reassemblyProblem(error, packet: packet) }
        switch result.frame {
        case .inFragment?:
            var frame = ByteCursor(fragment, layer: .l2cap, baseOffset: offset)
            try l2capFrame(&frame, handle: header.handle, direction: direction, packet: packet)
        case .joined(let bytes)?:
            // Offsets in a joined frame count from its first byte.
            var frame = ByteCursor(bytes.span.bytes, layer: .l2cap)
            do throws(DecodeError) {
                try l2capFrame(&frame, handle: header.handle, direction: direction, packet: packet)
            } catch {
                throw DecodeError(error.code, layer: error.layer, offset: error.offset,
                                  expected: "\(error.expected) (in the \(bytes.count)-byte L2CAP frame joined from fragments)")
            }
        case nil:
            break
        }
    }

    private func l2capFrame(_ cursor: inout ByteCursor, handle: UInt16, direction: HCIDirection, packet: PacketInfo) throws(DecodeError) {
        let header = try L2CAPBasicHeader(parsing: &cursor)
        guard header.channel == .attribute else { return }
        let offset = cursor.offset
        var att = ByteCursor(cursor.readRemaining(), layer: .att, baseOffset: offset)
        let pdu = try ATTPDU(parsing: &att)
        let entry = connections[handle] ?? open(
            handle, peer: Self.unknownAddress, hostIsController: true, handshakeSeen: false, packet: packet)
        let hostSent = direction == .hostToController
        let hapDirection: HAPDirection = hostSent == entry.hostIsController ? .controllerToAccessory : .accessoryToController
        entry.connection.process(pdu, direction: hapDirection, offset: offset, packet: packet)
    }

    // MARK: Connections

    @discardableResult
    private func open(
        _ handle: UInt16, peer: BluetoothAddress, hostIsController: Bool, handshakeSeen: Bool, packet: PacketInfo
    ) -> (connection: BLEConnection, hostIsController: Bool) {
        if connections.count >= context.limits.ble.maximumConnections, let oldest = connectionOrder.first {
            context.limitReached(.bleConnections, "more LE connections than the ble.connections limit: the oldest was closed", packet)
            close(oldest, reason: .evicted, offset: 0, packet: packet)
        }
        let local = PeerAddress.bluetooth(localAddress ?? Self.unknownAddress)
        let remote = PeerAddress.bluetooth(peer)
        let info = ConnectionInfo(
            id: context.nextConnectionID(), transport: .bluetoothLE(connectionHandle: handle),
            controller: hostIsController ? local : remote, accessory: hostIsController ? remote : local)
        // The advertisements a capturing central saw are the peer's: only then are they compared.
        let watched = handshakeSeen && hostIsController
        let standing = watched ? globalStateNumbers.opened(info, to: peer, latest: advertisements.latestGlobalStateNumber(from: peer)) : nil
        let latestRegular = watched ? advertisements.latestRegular(from: peer) : nil
        let connection = BLEConnection(
            info: info, handshakeSeen: handshakeSeen, packet: packet, context: context,
            earlierProperties: propertiesByAccessory[info.accessory] ?? [:], standingValues: standing,
            openedUnderConfigurationNumber: latestRegular?.advertisement.configurationNumber,
            earlierReading: configurationNumbers.earlierReading(of: peer, latest: latestRegular), onPDU: onPDU,
            onProtocolConfiguration: { [unowned self] answer, packet in self.protocolConfigured(answer, on: info, packet: packet) })
        connections[handle] = (connection, hostIsController)
        connectionOrder.append(handle)
        if latestConnectionByAccessory[info.accessory] == nil, latestConnectionByAccessory.count >= context.limits.ble.maximumConnections {
            latestConnectionByAccessory.remove(at: latestConnectionByAccessory.startIndex)
        }
        latestConnectionByAccessory[info.accessory] = info
        context.emit(.connectionOpened(ConnectionOpenedEvent(
            connection: info, deviceID: nil, handshakeSeen: handshakeSeen, recognisedBy: .leConnection)), packet)
        return (connection, hostIsController)
    }

    /// The accessory answered a Protocol Configuration: a new broadcast key, the GSN it stated.
    private func protocolConfigured(_ answer: BLEConnection.ProtocolConfigurationAnswer, on connection: ConnectionInfo, packet: PacketInfo) {
        guard case .bluetooth(let peer) = connection.accessory else { return }
        if answer.generatedBroadcastKey {
            broadcastKeys.generated(by: peer, on: connection, packet: packet, statedGSN: answer.statedGSN)
        } else if let gsn = answer.statedGSN {
            broadcastKeys.stated(gsn, by: peer, packet: packet)
        }
    }

    private func close(
        _ handle: UInt16, reason: ConnectionCloseReason, disconnectionReason: HCIStatus? = nil, offset: Int, packet: PacketInfo?
    ) {
        guard let entry = connections.removeValue(forKey: handle) else { return }
        connectionOrder.removeAll { $0 == handle }
        for error in reassembler.finish(handle: handle, offset: offset) { reassemblyProblem(error, packet: packet) }
        entry.connection.close(reason: reason, disconnectionReason: disconnectionReason, offset: offset, packet: packet)
        if entry.connection.handshakeSeen, entry.hostIsController, case .bluetooth(let address) = entry.connection.info.accessory {
            globalStateNumbers.closed(entry.connection.info, to: address, values: entry.connection.disconnectedNotifyingValues, in: packet)
            if let number = entry.connection.openedUnderConfigurationNumber, let reading = entry.connection.databaseReading {
                configurationNumbers.closed(entry.connection.info, to: address, reading: reading, openedUnder: number)
            }
        }
        remember(entry.connection)
    }

    private func remember(_ connection: BLEConnection) {
        let properties = connection.signatures.compactMapValues(\.properties)
        guard !properties.isEmpty else { return }
        let accessory = connection.info.accessory
        if propertiesByAccessory[accessory] == nil {
            if accessoryOrder.count >= context.limits.ble.maximumConnections {
                propertiesByAccessory.removeValue(forKey: accessoryOrder.removeFirst())
            }
            accessoryOrder.append(accessory)
        }
        propertiesByAccessory[accessory, default: [:]].merge(properties) { $1 }
    }

    /// Closes every connection still open: the capture ended.
    package func finish() {
        for handle in connectionOrder { close(handle, reason: .captureEnded, offset: 0, packet: nil) }
        for error in reassembler.finish(offset: 0) { reassemblyProblem(error, packet: nil) }
    }

    private func reassemblyProblem(_ error: DecodeError, packet: PacketInfo?) {
        guard error.code == .limitExceeded else {
            problem(packet.map { "packet \($0.number): \(error)" } ?? "\(error)", packet: packet)
            return
        }
        let pending = reassembler.pendingFrameCount >= reassembler.limits.maximumPendingFrames
        context.limitReached(pending ? .bleL2CAPPending : .bleL2CAPFrame, "\(error)", packet)
    }

    private func problem(_ message: String, packet: PacketInfo?) {
        context.emit(.problem(CaptureProblem(.undecodableBLE, message)), packet)
    }
}
