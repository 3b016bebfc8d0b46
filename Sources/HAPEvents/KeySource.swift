/// Which key-log entry opened a session, so reports can say why a session was or was not
/// decrypted.
public enum KeySource: String, Sendable, Hashable, CustomStringConvertible {
    case pairVerifySharedSecret = "PAIR_VERIFY_SHARED_SECRET"
    case controllerEphemeralSecret = "CONTROLLER_EPHEMERAL_SECRET"
    case accessoryEphemeralSecret = "ACCESSORY_EPHEMERAL_SECRET"
    case controlKeys = "CONTROL_WRITE_KEY/CONTROL_READ_KEY"
    case pairSetupSessionKey = "PAIR_SETUP_SESSION_KEY"

    public var description: String { rawValue }
}
