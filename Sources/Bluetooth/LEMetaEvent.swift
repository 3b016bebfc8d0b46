import WireParsing

/// An LE Meta event (0x3E): a subevent code (1) and the subevent's parameters
/// (Core Vol 4 Part E §7.7.65).
public enum LEMetaEvent: Hashable, Sendable {
    /// LE Connection Complete (0x01), LE Enhanced Connection Complete v1 (0x0A) and v2 (0x29).
    case connectionComplete(LEConnectionComplete)
    /// LE Advertising Report (0x02).
    case advertisingReports([LEAdvertisingReport])
    /// LE Connection Update Complete (0x03).
    case connectionUpdateComplete(LEConnectionUpdateComplete)
    /// LE Data Length Change (0x07).
    case dataLengthChange(LEDataLengthChange)
    /// LE Extended Advertising Report (0x0D).
    case extendedAdvertisingReports([LEExtendedAdvertisingReport])
    /// A subevent this decoder keeps only as its code; the parameters are the event's.
    case other(subevent: UInt8)

    public static let connectionCompleteSubevent: UInt8 = 0x01
    public static let advertisingReportSubevent: UInt8 = 0x02
    public static let connectionUpdateCompleteSubevent: UInt8 = 0x03
    public static let dataLengthChangeSubevent: UInt8 = 0x07
    public static let enhancedConnectionCompleteSubevent: UInt8 = 0x0A
    public static let extendedAdvertisingReportSubevent: UInt8 = 0x0D
    public static let enhancedConnectionCompleteV2Subevent: UInt8 = 0x29

    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        let subevent = try cursor.readUInt8("an LE Meta subevent code")
        switch subevent {
        case Self.connectionCompleteSubevent:
            self = .connectionComplete(try LEConnectionComplete(parsing: &cursor, version: .legacy))
        case Self.enhancedConnectionCompleteSubevent:
            self = .connectionComplete(try LEConnectionComplete(parsing: &cursor, version: .enhanced))
        case Self.enhancedConnectionCompleteV2Subevent:
            self = .connectionComplete(try LEConnectionComplete(parsing: &cursor, version: .enhancedV2))
        case Self.advertisingReportSubevent:
            self = .advertisingReports(try LEAdvertisingReport.list(parsing: &cursor))
        case Self.extendedAdvertisingReportSubevent:
            self = .extendedAdvertisingReports(try LEExtendedAdvertisingReport.list(parsing: &cursor))
        case Self.connectionUpdateCompleteSubevent:
            self = .connectionUpdateComplete(try LEConnectionUpdateComplete(parsing: &cursor))
        case Self.dataLengthChangeSubevent:
            self = .dataLengthChange(try LEDataLengthChange(parsing: &cursor))
        default:
            self = .other(subevent: subevent)
        }
    }
}

/// A new LE connection, from any of the three connection-complete subevents.
///
/// Legacy (0x01): status, handle, role, peer address type, peer address, interval, latency,
/// supervision timeout, central clock accuracy. Enhanced (0x0A) adds the local and peer
/// resolvable private addresses after the peer address; v2 (0x29) adds the advertising handle
/// and the periodic-sync handle at the end.
public struct LEConnectionComplete: Hashable, Sendable {
    public enum Version: Hashable, Sendable {
        case legacy, enhanced, enhancedV2
    }

    public var version: Version
    public var status: HCIStatus
    public var handle: UInt16
    /// 0 central, 1 peripheral: which side the capturing host is.
    public var role: UInt8
    public var peerAddressType: BluetoothAddressType
    public var peerAddress: BluetoothAddress
    public var localResolvablePrivateAddress: BluetoothAddress?
    public var peerResolvablePrivateAddress: BluetoothAddress?
    /// In units of 1.25 ms.
    public var connectionInterval: UInt16
    public var peripheralLatency: UInt16
    /// In units of 10 ms.
    public var supervisionTimeout: UInt16
    public var centralClockAccuracy: UInt8
    public var advertisingHandle: UInt8?
    public var syncHandle: UInt16?

    public var isCentral: Bool { role == 0 }

    public init(parsing cursor: inout ByteCursor, version: Version) throws(DecodeError) {
        self.version = version
        status = HCIStatus(rawValue: try cursor.readUInt8("the status of LE Connection Complete"))
        handle = try cursor.readConnectionHandle("the connection handle of LE Connection Complete")
        role = try cursor.readUInt8("the role of LE Connection Complete")
        peerAddressType = BluetoothAddressType(rawValue: try cursor.readUInt8("the peer address type"))
        peerAddress = try BluetoothAddress(parsing: &cursor)
        if version != .legacy {
            localResolvablePrivateAddress = try BluetoothAddress(parsing: &cursor)
            peerResolvablePrivateAddress = try BluetoothAddress(parsing: &cursor)
        }
        connectionInterval = try cursor.readUInt16LittleEndian("the connection interval")
        peripheralLatency = try cursor.readUInt16LittleEndian("the peripheral latency")
        supervisionTimeout = try cursor.readUInt16LittleEndian("the supervision timeout")
        centralClockAccuracy = try cursor.readUInt8("the central clock accuracy")
        if version == .enhancedV2 {
            advertisingHandle = try cursor.readUInt8("the advertising handle")
            syncHandle = try cursor.readUInt16LittleEndian("the sync handle")
        }
    }
}

/// LE Connection Update Complete (0x03): status, handle, interval, latency, supervision timeout.
public struct LEConnectionUpdateComplete: Hashable, Sendable {
    public var status: HCIStatus
    public var handle: UInt16
    public var connectionInterval: UInt16
    public var peripheralLatency: UInt16
    public var supervisionTimeout: UInt16

    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        status = HCIStatus(rawValue: try cursor.readUInt8("the status of LE Connection Update Complete"))
        handle = try cursor.readConnectionHandle("the connection handle of LE Connection Update Complete")
        connectionInterval = try cursor.readUInt16LittleEndian("the connection interval")
        peripheralLatency = try cursor.readUInt16LittleEndian("the peripheral latency")
        supervisionTimeout = try cursor.readUInt16LittleEndian("the supervision timeout")
    }
}

/// LE Data Length Change (0x07): handle and the new maximum payload octets and times each way.
public struct LEDataLengthChange: Hashable, Sendable {
    public var handle: UInt16
    public var maximumTransmitOctets: UInt16
    public var maximumTransmitTime: UInt16
    public var maximumReceiveOctets: UInt16
    public var maximumReceiveTime: UInt16

    public init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        handle = try cursor.readConnectionHandle("the connection handle of LE Data Length Change")
        maximumTransmitOctets = try cursor.readUInt16LittleEndian("the maximum transmit octets")
        maximumTransmitTime = try cursor.readUInt16LittleEndian("the maximum transmit time")
        maximumReceiveOctets = try cursor.readUInt16LittleEndian("the maximum receive octets")
        maximumReceiveTime = try cursor.readUInt16LittleEndian("the maximum receive time")
    }
}

/// One report of LE Advertising Report (0x02): event type, address type, address, data
/// length, data (at most 31 bytes), RSSI. Reports follow one another whole, as the Linux
/// kernel (`hci_le_adv_report_evt`) and Bumble read them.
public struct LEAdvertisingReport: Hashable, Sendable {
    /// 0 ADV_IND, 1 ADV_DIRECT_IND, 2 ADV_SCAN_IND, 3 ADV_NONCONN_IND, 4 SCAN_RSP.
    public var eventType: UInt8
    public var addressType: BluetoothAddressType
    public var address: BluetoothAddress
    public var data: AdvertisingData
    /// dBm; 127 means not available.
    public var rssi: Int8

    public var isScanResponse: Bool { eventType == 4 }

    static func list(parsing cursor: inout ByteCursor) throws(DecodeError) -> [LEAdvertisingReport] {
        let count = Int(try cursor.readUInt8("the number of advertising reports"))
        // Each report takes at least 10 bytes, so the count is bounded by the bytes present.
        guard count * 10 <= cursor.remainingCount else {
            throw cursor.truncated("\(count) advertising reports of at least 10 bytes each")
        }
        var reports: [LEAdvertisingReport] = []
        reports.reserveCapacity(count)
        for _ in 0 ..< count {
            let eventType = try cursor.readUInt8("an advertising event type")
            let addressType = BluetoothAddressType(rawValue: try cursor.readUInt8("an advertiser address type"))
            let address = try BluetoothAddress(parsing: &cursor)
            let length = Int(try cursor.readUInt8("an advertising data length"))
            guard length <= AdvertisingData.legacyMaximumLength else {
                throw cursor.malformed("legacy advertising data of at most 31 bytes, found \(length)", at: cursor.position - 1)
            }
            let data = try AdvertisingData(leniently: &cursor, count: length)
            let rssi = Int8(bitPattern: try cursor.readUInt8("the RSSI of an advertising report"))
            reports.append(LEAdvertisingReport(eventType: eventType, addressType: addressType, address: address, data: data, rssi: rssi))
        }
        return reports
    }

    public init(eventType: UInt8, addressType: BluetoothAddressType, address: BluetoothAddress, data: AdvertisingData, rssi: Int8) {
        self.eventType = eventType
        self.addressType = addressType
        self.address = address
        self.data = data
        self.rssi = rssi
    }
}

/// One report of LE Extended Advertising Report (0x0D): a 24-byte fixed part (event type (2),
/// address type, address, primary and secondary PHY, SID, TX power, RSSI, periodic interval (2),
/// direct address type, direct address, data length) and up to 229 bytes of data.
public struct LEExtendedAdvertisingReport: Hashable, Sendable {
    /// Bit 0 connectable, 1 scannable, 2 directed, 3 scan response, 4 legacy PDU, bits 5–6 data
    /// status (0 complete, 1 more to come, 2 truncated).
    public var eventType: UInt16
    public var addressType: BluetoothAddressType
    public var address: BluetoothAddress
    public var primaryPHY: UInt8
    public var secondaryPHY: UInt8
    public var advertisingSID: UInt8
    public var txPower: Int8
    public var rssi: Int8
    public var periodicAdvertisingInterval: UInt16
    public var directAddressType: BluetoothAddressType
    public var directAddress: BluetoothAddress
    public var data: AdvertisingData

    public var isScanResponse: Bool { eventType & 0x0008 != 0 }
    /// Bits 5–6: 0 complete, 1 incomplete with more to come, 2 incomplete and truncated.
    public var dataStatus: UInt8 { UInt8(eventType >> 5 & 0x03) }

    static let fixedLength = 24

    static func list(parsing cursor: inout ByteCursor) throws(DecodeError) -> [LEExtendedAdvertisingReport] {
        let count = Int(try cursor.readUInt8("the number of extended advertising reports"))
        guard count * fixedLength <= cursor.remainingCount else {
            throw cursor.truncated("\(count) extended advertising reports of at least 24 bytes each")
        }
        var reports: [LEExtendedAdvertisingReport] = []
        reports.reserveCapacity(count)
        for _ in 0 ..< count {
            reports.append(try LEExtendedAdvertisingReport(parsing: &cursor))
        }
        return reports
    }

    init(parsing cursor: inout ByteCursor) throws(DecodeError) {
        eventType = try cursor.readUInt16LittleEndian("an extended advertising event type")
        addressType = BluetoothAddressType(rawValue: try cursor.readUInt8("an advertiser address type"))
        address = try BluetoothAddress(parsing: &cursor)
        primaryPHY = try cursor.readUInt8("the primary PHY")
        secondaryPHY = try cursor.readUInt8("the secondary PHY")
        advertisingSID = try cursor.readUInt8("the advertising SID")
        txPower = Int8(bitPattern: try cursor.readUInt8("the TX power"))
        rssi = Int8(bitPattern: try cursor.readUInt8("the RSSI"))
        periodicAdvertisingInterval = try cursor.readUInt16LittleEndian("the periodic advertising interval")
        directAddressType = BluetoothAddressType(rawValue: try cursor.readUInt8("the direct address type"))
        directAddress = try BluetoothAddress(parsing: &cursor)
        let length = Int(try cursor.readUInt8("an extended advertising data length"))
        data = try AdvertisingData(leniently: &cursor, count: length)
    }
}
