/// Plaintext recovered from one direction of an encrypted session, in stream order: the
/// contents of the frames (or the stray plaintext) that the event's packet completed. Emitted
/// only when the analysis is configured to (`AnalysisConfiguration.emitsDecryptedData`), for
/// consumers that rebuild the capture with the plaintext in place.
public struct DecryptedDataEvent: Sendable {
    public let connection: ConnectionInfo
    public let direction: HAPDirection
    public let plaintext: [UInt8]

    public init(connection: ConnectionInfo, direction: HAPDirection, plaintext: [UInt8]) {
        self.connection = connection
        self.direction = direction
        self.plaintext = plaintext
    }
}
