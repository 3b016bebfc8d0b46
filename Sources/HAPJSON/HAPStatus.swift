/// A HAP status code, the `status` of a `/characteristics` entry or of an error body.
/// (HAP: status codes; `-70408` and `-70412` come from HAP-NodeJS, HAP-python and aiohomekit only.)
public struct HAPStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code, negative for errors as HAP defines them.
    public let rawValue: Int64

    public init(rawValue: Int64) { self.rawValue = rawValue }

    public static let success = HAPStatus(rawValue: 0)
    public static let insufficientPrivileges = HAPStatus(rawValue: -70401)
    public static let unableToCommunicate = HAPStatus(rawValue: -70402)
    public static let resourceBusy = HAPStatus(rawValue: -70403)
    public static let readOnlyCharacteristic = HAPStatus(rawValue: -70404)
    public static let writeOnlyCharacteristic = HAPStatus(rawValue: -70405)
    public static let notificationNotSupported = HAPStatus(rawValue: -70406)
    public static let outOfResources = HAPStatus(rawValue: -70407)
    public static let operationTimedOut = HAPStatus(rawValue: -70408)
    public static let resourceDoesNotExist = HAPStatus(rawValue: -70409)
    public static let invalidValue = HAPStatus(rawValue: -70410)
    public static let insufficientAuthorization = HAPStatus(rawValue: -70411)
    public static let notAllowedInCurrentState = HAPStatus(rawValue: -70412)

    /// What the code means, for the codes HAP defines.
    public var name: String? {
        switch rawValue {
        case 0: "success"
        case -70401: "insufficient privileges"
        case -70402: "unable to perform operation"
        case -70403: "resource busy"
        case -70404: "write to read-only characteristic"
        case -70405: "read from write-only characteristic"
        case -70406: "notification not supported"
        case -70407: "out of resources"
        case -70408: "operation timed out"
        case -70409: "resource does not exist"
        case -70410: "invalid value in write request"
        case -70411: "insufficient authorization"
        case -70412: "not allowed in current state"
        default: nil
        }
    }

    public var isSuccess: Bool { rawValue == 0 }

    /// `-70402 (unable to perform operation)`.
    public var description: String {
        name.map { "\(rawValue) (\($0))" } ?? String(rawValue)
    }

    /// The status a device meant by the code it sent: some send error codes without their sign
    /// (`70402`, HAP quirk seen from MyQ; aiohomekit negates them too).
    public init(wireValue: Int64) {
        self.init(rawValue: wireValue > 0 ? -wireValue : wireValue)
    }
}
