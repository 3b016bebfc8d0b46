import HAPJSON
import Packets

/// A HAP-BLE characteristic value that changed between two LE connections while the Global State
/// Number stood still (HAP: disconnected events; HomeKitADK HAPBLEAccessoryServer+Advertising.c
/// increments the GSN on the first change of such a characteristic in each connected or
/// disconnected period, so a controller that watches the advertisements knows to reconnect).
public struct UnannouncedValueChange: Sendable {
    /// The earlier connection, on which the controller last saw the value.
    public let earlierConnection: ConnectionInfo
    /// The value it saw there, typed like the activity's.
    public let earlierValue: InterpretedValue?
    /// The GSN the accessory advertised before the earlier connection and still before this one.
    public let globalStateNumber: UInt16
    /// The last advertisement between the two connections, which carried that GSN.
    public let advertisementPacket: PacketInfo

    public init(earlierConnection: ConnectionInfo, earlierValue: InterpretedValue?, globalStateNumber: UInt16, advertisementPacket: PacketInfo) {
        self.earlierConnection = earlierConnection
        self.earlierValue = earlierValue
        self.globalStateNumber = globalStateNumber
        self.advertisementPacket = advertisementPacket
    }
}
