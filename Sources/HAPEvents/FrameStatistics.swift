import Packets

/// Frame counts of one direction of an encrypted session.
public struct FrameStatistics: Sendable, Hashable {
    public var frames = 0
    public var ciphertextBytes = 0
    public var plaintextBytes = 0
    public var largestFrame = 0
    public var oversizeFrames = 0
    public var firstFrameTime: Timestamp?
    public var lastFrameTime: Timestamp?

    public init() {}
}
