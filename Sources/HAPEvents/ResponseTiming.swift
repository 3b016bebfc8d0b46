import Packets

/// How long the accessory took to answer a request: from the packet completing the request to the
/// packet carrying the first byte of its response, so the time the response took to cross the
/// network is left out. Judged once, here, against the marks controllers and reference stacks act
/// on (docs/audit-rules.md, "No Response").
public struct ResponseTiming: Sendable, Hashable {
    public enum Verdict: String, Sendable, Hashable, CaseIterable {
        /// Within `slowResponseSeconds`.
        case prompt
        /// Later than `slowResponseSeconds`: HAP-NodeJS warns that the handler "was slow to respond".
        case slow
        /// Later than `abandonedResponseSeconds`: HAP-NodeJS no longer waits for its own handler
        /// and answers -70408 instead; a controller shows the characteristic as "No Response".
        case pastTimeout = "past-timeout"
        /// Later than the controller's own timeout for the request, which the transport knows
        /// (`controllerTimeoutSeconds`): the controller had given up, so the answer reached no one.
        case afterControllerTimeout = "after-controller-timeout"
    }

    /// HAP-NodeJS src/lib/Characteristic.ts: "HAP-NodeJS will complain about slow running get
    /// handlers after 3 seconds and terminate the request after 10 seconds" (`Accessory.ts`
    /// `handleGetCharacteristics`/`handleSetCharacteristics` warn after 3 s).
    public static let slowResponseSeconds = 3.0
    /// HAP-NodeJS answers -70408 (operation timed out) when a handler has not returned after 10 s.
    public static let abandonedResponseSeconds = 10.0

    /// Seconds from the request's last packet to the response's first.
    public let seconds: Double
    /// How long the controller waits for this response before it gives up, where the transport
    /// knows it (HAP over CoAP: aiohomekit's 16 s); nil where controllers wait longer than any
    /// mark above.
    public let controllerTimeoutSeconds: Double?
    public let verdict: Verdict

    public init(seconds: Double, controllerTimeoutSeconds: Double? = nil) {
        self.seconds = seconds
        self.controllerTimeoutSeconds = controllerTimeoutSeconds
        if let controllerTimeoutSeconds, seconds > controllerTimeoutSeconds {
            verdict = .afterControllerTimeout
        } else {
            verdict = seconds > Self.abandonedResponseSeconds ? .pastTimeout : seconds > Self.slowResponseSeconds ? .slow : .prompt
        }
    }

    /// The response time of a request completed by `request` and answered starting in `response`.
    public init(request: PacketInfo, response: PacketInfo, controllerTimeoutSeconds: Double? = nil) {
        self.init(seconds: max(0, response.timestamp - request.timestamp), controllerTimeoutSeconds: controllerTimeoutSeconds)
    }
}
