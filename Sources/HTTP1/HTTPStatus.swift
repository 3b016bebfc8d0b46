/// A response status code, named as HAP uses it.
///
/// HAP: §5.4 of the project's fact sheet; the codes come from HomeKitADK's canned responses and
/// HAP-NodeJS's `HAPHTTPCode`.
public struct HTTPStatus: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Pairing responses (also those carrying a TLV Error), reads, `/accessories`, `/prepare`,
    /// `/resource`, and every `EVENT/1.0`.
    public static let ok = HTTPStatus(rawValue: 200)
    /// A write without write-response, `/identify`, an empty read.
    public static let noContent = HTTPStatus(rawValue: 204)
    /// At least one characteristic failed, or a write-response was asked for; every entry of
    /// the body then carries a HAP `status`.
    public static let multiStatus = HTTPStatus(rawValue: 207)
    /// Not used by HAP; named because it never has a body.
    public static let notModified = HTTPStatus(rawValue: 304)
    /// A malformed request, `/identify` on a paired accessory, a pairing endpoint in the wrong
    /// session state.
    public static let badRequest = HTTPStatus(rawValue: 400)
    /// HAP-python's answer to a request that needs a verified session, where HomeKitADK and
    /// HAP-NodeJS send 470.
    public static let unauthorized = HTTPStatus(rawValue: 401)
    /// An unknown path.
    public static let notFound = HTTPStatus(rawValue: 404)
    /// A known path with the wrong method.
    public static let methodNotAllowed = HTTPStatus(rawValue: 405)
    /// Defined by HAP-NodeJS only; no implementation is known to send it.
    public static let unprocessableEntity = HTTPStatus(rawValue: 422)
    /// HAP-NodeJS's "pair while already pairing".
    public static let tooManyRequests = HTTPStatus(rawValue: 429)
    /// The request needs a session secured by Pair Verify.
    public static let connectionAuthorizationRequired = HTTPStatus(rawValue: 470)
    /// A server failure; HomeKitADK adds `{"status":-70407}` when out of memory.
    public static let internalServerError = HTTPStatus(rawValue: 500)
    /// Defined by HAP-NodeJS ("maximum connections reached"); no implementation is known to send it.
    public static let serviceUnavailable = HTTPStatus(rawValue: 503)

    /// The name HAP gives the code, or nil for a code HAP does not use.
    public var name: String? {
        switch rawValue {
        case 200: "OK"
        case 204: "No Content"
        case 207: "Multi-Status"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 422: "Unprocessable Entity"
        case 429: "Too Many Requests"
        case 470: "Connection Authorization Required"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: nil
        }
    }

    /// 1xx: an interim response, always without a body.
    public var isInformational: Bool { (100 ..< 200).contains(rawValue) }
    /// 2xx.
    public var isSuccess: Bool { (200 ..< 300).contains(rawValue) }

    /// Whether a response with this status never has a body, whatever its header fields say.
    /// RFC 9112 §6.3: 1xx, 204 and 304.
    public var forbidsBody: Bool { isInformational || rawValue == 204 || rawValue == 304 }

    public static func < (lhs: HTTPStatus, rhs: HTTPStatus) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `207 Multi-Status`, or the bare number for a code HAP does not name.
    public var description: String {
        name.map { "\(rawValue) \($0)" } ?? String(rawValue)
    }
}
