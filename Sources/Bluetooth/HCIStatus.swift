/// An HCI status or error code (Core Vol 1 Part F §1.3), as events and Disconnect carry it.
public struct HCIStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let success = HCIStatus(rawValue: 0x00)
    public static let unknownConnectionIdentifier = HCIStatus(rawValue: 0x02)
    public static let authenticationFailure = HCIStatus(rawValue: 0x05)
    public static let pinOrKeyMissing = HCIStatus(rawValue: 0x06)
    public static let connectionTimeout = HCIStatus(rawValue: 0x08)
    public static let remoteUserTerminatedConnection = HCIStatus(rawValue: 0x13)
    public static let remoteDeviceTerminatedLowResources = HCIStatus(rawValue: 0x14)
    public static let remoteDeviceTerminatedPowerOff = HCIStatus(rawValue: 0x15)
    public static let connectionTerminatedByLocalHost = HCIStatus(rawValue: 0x16)
    public static let lmpResponseTimeout = HCIStatus(rawValue: 0x22)
    public static let instantPassed = HCIStatus(rawValue: 0x28)
    public static let unacceptableConnectionParameters = HCIStatus(rawValue: 0x3B)
    public static let connectionFailedToBeEstablished = HCIStatus(rawValue: 0x3E)
    public static let mic = HCIStatus(rawValue: 0x3D)

    public var name: String? {
        switch self {
        case .success: "Success"
        case .unknownConnectionIdentifier: "Unknown Connection Identifier"
        case .authenticationFailure: "Authentication Failure"
        case .pinOrKeyMissing: "PIN or Key Missing"
        case .connectionTimeout: "Connection Timeout"
        case .remoteUserTerminatedConnection: "Remote User Terminated Connection"
        case .remoteDeviceTerminatedLowResources: "Remote Device Terminated Connection due to Low Resources"
        case .remoteDeviceTerminatedPowerOff: "Remote Device Terminated Connection due to Power Off"
        case .connectionTerminatedByLocalHost: "Connection Terminated By Local Host"
        case .lmpResponseTimeout: "LMP Response Timeout / LL Response Timeout"
        case .instantPassed: "Instant Passed"
        case .unacceptableConnectionParameters: "Unacceptable Connection Parameters"
        case .mic: "Connection Terminated due to MIC Failure"
        case .connectionFailedToBeEstablished: "Connection Failed to be Established"
        default: nil
        }
    }

    public var description: String {
        let hex = "0x" + String(rawValue, radix: 16).leftPadded(to: 2)
        return name.map { "\($0) (\(hex))" } ?? "HCI status \(hex)"
    }
}
