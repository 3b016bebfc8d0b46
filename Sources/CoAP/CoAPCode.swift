/// A message code: a 3-bit class and a 5-bit detail, written `c.dd` (RFC 7252 §3, §12.1).
public struct CoAPCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public init(class codeClass: UInt8, detail: UInt8) {
        rawValue = (codeClass & 0x07) << 5 | detail & 0x1F
    }

    public var codeClass: UInt8 { rawValue >> 5 }
    public var detail: UInt8 { rawValue & 0x1F }

    public static let empty = CoAPCode(rawValue: 0)
    public static let get = CoAPCode(class: 0, detail: 1)
    public static let post = CoAPCode(class: 0, detail: 2)
    public static let put = CoAPCode(class: 0, detail: 3)
    public static let delete = CoAPCode(class: 0, detail: 4)
    public static let created = CoAPCode(class: 2, detail: 1)
    public static let deleted = CoAPCode(class: 2, detail: 2)
    public static let valid = CoAPCode(class: 2, detail: 3)
    public static let changed = CoAPCode(class: 2, detail: 4)
    public static let content = CoAPCode(class: 2, detail: 5)
    /// RFC 7959 §2.9.1.
    public static let `continue` = CoAPCode(class: 2, detail: 31)
    public static let badRequest = CoAPCode(class: 4, detail: 0)
    public static let unauthorized = CoAPCode(class: 4, detail: 1)
    public static let badOption = CoAPCode(class: 4, detail: 2)
    public static let forbidden = CoAPCode(class: 4, detail: 3)
    public static let notFound = CoAPCode(class: 4, detail: 4)
    public static let methodNotAllowed = CoAPCode(class: 4, detail: 5)
    public static let notAcceptable = CoAPCode(class: 4, detail: 6)
    public static let requestEntityIncomplete = CoAPCode(class: 4, detail: 8)
    public static let preconditionFailed = CoAPCode(class: 4, detail: 12)
    public static let requestEntityTooLarge = CoAPCode(class: 4, detail: 13)
    public static let unsupportedContentFormat = CoAPCode(class: 4, detail: 15)
    public static let internalServerError = CoAPCode(class: 5, detail: 0)
    public static let notImplemented = CoAPCode(class: 5, detail: 1)
    public static let badGateway = CoAPCode(class: 5, detail: 2)
    public static let serviceUnavailable = CoAPCode(class: 5, detail: 3)
    public static let gatewayTimeout = CoAPCode(class: 5, detail: 4)
    public static let proxyingNotSupported = CoAPCode(class: 5, detail: 5)

    public var isRequest: Bool { codeClass == 0 && detail != 0 }
    public var isResponse: Bool { (2 ... 5).contains(codeClass) }
    public var isEmpty: Bool { rawValue == 0 }

    public var name: String? {
        switch self {
        case .empty: "Empty"
        case .get: "GET"
        case .post: "POST"
        case .put: "PUT"
        case .delete: "DELETE"
        case CoAPCode(class: 0, detail: 5): "FETCH"
        case CoAPCode(class: 0, detail: 6): "PATCH"
        case CoAPCode(class: 0, detail: 7): "iPATCH"
        case .created: "Created"
        case .deleted: "Deleted"
        case .valid: "Valid"
        case .changed: "Changed"
        case .content: "Content"
        case .continue: "Continue"
        case .badRequest: "Bad Request"
        case .unauthorized: "Unauthorized"
        case .badOption: "Bad Option"
        case .forbidden: "Forbidden"
        case .notFound: "Not Found"
        case .methodNotAllowed: "Method Not Allowed"
        case .notAcceptable: "Not Acceptable"
        case .requestEntityIncomplete: "Request Entity Incomplete"
        case CoAPCode(class: 4, detail: 9): "Conflict"
        case .preconditionFailed: "Precondition Failed"
        case .requestEntityTooLarge: "Request Entity Too Large"
        case .unsupportedContentFormat: "Unsupported Content-Format"
        case CoAPCode(class: 4, detail: 22): "Unprocessable Entity"
        case CoAPCode(class: 4, detail: 29): "Too Many Requests"
        case .internalServerError: "Internal Server Error"
        case .notImplemented: "Not Implemented"
        case .badGateway: "Bad Gateway"
        case .serviceUnavailable: "Service Unavailable"
        case .gatewayTimeout: "Gateway Timeout"
        case .proxyingNotSupported: "Proxying Not Supported"
        default: nil
        }
    }

    /// `2.05 Content`, `0.02 POST`, or `7.31` for a code without a name.
    public var description: String {
        let text = "\(codeClass).\(detail < 10 ? "0" : "")\(detail)"
        return name.map { "\(text) \($0)" } ?? text
    }
}
