import HAPJSON
import Packets

/// What is wrong with the timing or the addressing of an `EVENT/1.0` notification, judged by the
/// analysis as the EVENT arrives (docs/audit-rules.md, "Events").
public enum NotificationProblem: Sendable, Hashable {
    /// This EVENT is the third for the characteristic within less than `coalescingSeconds`
    /// (`seconds` from the first of the three): the accessory did not coalesce its notifications.
    /// Reported once per burst, on the EVENT that completes its first three.
    case burst(CharacteristicID, seconds: Double)
    /// Sent while `request` was complete and still waiting for its response, `secondsAfterRequest`
    /// after its last packet.
    case insideResponse(request: HTTPMessageEvent.RequestReference, secondsAfterRequest: Double)
    /// For a characteristic whose `"ev": false` the accessory had answered on this connection (in
    /// the packet `unsubscribedAt`).
    case afterUnsubscribe(CharacteristicID, unsubscribedAt: PacketInfo)

    /// HAP R17 §6.8, as HomeKitADK HAPIPAccessoryServer.c quotes it: "Network-based notifications
    /// must be coalesced by the accessory using a delay of no less than 1 second"
    /// (`kHAPIPAccessoryServer_MaxEventNotificationDelay`): at most two EVENTs of one
    /// characteristic fit into a second.
    public static let coalescingSeconds = 1.0
    /// Three EVENTs of one characteristic inside `coalescingSeconds` make a burst.
    public static let eventsInABurst = 3
    /// An accessory may send an EVENT before it has read a request already on the wire; an EVENT
    /// this long after the request was complete was written while the accessory held the request.
    public static let requestReadAllowanceSeconds = 0.1
}
