/// A request method, case-sensitive as RFC 9110 §9.1 defines it.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// `GET /accessories`, `GET /characteristics`.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `PUT /characteristics`, `PUT /prepare`.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// The pairing endpoints, `/identify`, `/resource`, `/secure-message`, `/config`.
    public static let post = HTTPMethod(rawValue: "POST")
    /// Not used by HAP; named for reports on other traffic.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// Not used by HAP. The stream parser does not pair responses with requests, so a
    /// response to `HEAD` is framed by its own header fields.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// Not used by HAP; named for reports on other traffic.
    public static let options = HTTPMethod(rawValue: "OPTIONS")

    public var description: String { rawValue }

    /// The method `bytes` spell. HAP's three are matched on their bytes and handed out as the
    /// literals: no text is made for the method of every request.
    init(bytes: UnsafeRawBufferPointer) {
        if ASCII.equals(bytes, "GET") {
            self = .get
        } else if ASCII.equals(bytes, "PUT") {
            self = .put
        } else if ASCII.equals(bytes, "POST") {
            self = .post
        } else {
            self.init(rawValue: String(decoding: bytes, as: UTF8.self))
        }
    }
}
