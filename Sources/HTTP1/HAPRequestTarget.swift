import WireParsing

/// A request target read the way HAP uses it: which endpoint, and for `/characteristics` the
/// typed query.
///
/// The reading is lenient: a target is never rejected, and query parts HAP implementations
/// would refuse become diagnostics with their stream offsets. HAP §5.1 of the fact sheet.
public struct HAPRequestTarget: Hashable, Sendable {
    /// The HAP endpoints, matched on the exact path.
    public enum Endpoint: Hashable, Sendable {
        /// `GET /accessories`: the attribute database.
        case accessories
        /// `GET` and `PUT /characteristics`: reads, writes, event subscriptions.
        case characteristics
        /// `POST /pairings`: add, remove and list pairings.
        case pairings
        /// `POST /pair-setup`: M1 to M6.
        case pairSetup
        /// `POST /pair-verify`: M1 to M4.
        case pairVerify
        /// `PUT /prepare`: the first half of a timed write.
        case prepare
        /// `POST /identify`, on an unpaired accessory.
        case identify
        /// `POST /resource`: a camera snapshot.
        case resource
        /// `POST /secure-message`: software authentication HAP-PDUs.
        case secureMessage
        /// `POST /config` and `/configured`: Wi-Fi Accessory Configuration leftovers in
        /// HomeKitADK.
        case config
        case configured
        /// Any other path; `path` holds it.
        case unknown
    }

    /// Which HAP endpoint the path names.
    public var endpoint: Endpoint
    /// The target up to `?`.
    public var path: String
    /// The text after `?`, if there was one.
    public var query: String?
    /// The query of a `/characteristics` target.
    public var characteristicQuery: HAPCharacteristicQuery?
    /// The query parts HAP implementations would refuse, in query order.
    public var diagnostics: [HAPRequestTargetDiagnostic]

    private static let endpointPaths: [(endpoint: Endpoint, path: String)] = [
        (.characteristics, "/characteristics"), (.accessories, "/accessories"), (.pairings, "/pairings"),
        (.pairSetup, "/pair-setup"), (.pairVerify, "/pair-verify"), (.prepare, "/prepare"), (.identify, "/identify"),
        (.resource, "/resource"), (.secureMessage, "/secure-message"), (.config, "/config"), (.configured, "/configured"),
    ]

    /// Reads the target that fills `cursor`'s remaining bytes and moves the cursor past it.
    /// Diagnostic offsets are the cursor's absolute offsets.
    public init(parsing cursor: inout ByteCursor) {
        let baseOffset = cursor.offset
        self = cursor.readRemaining().withUnsafeBytes { Self(target: $0, baseOffset: baseOffset) }
    }

    /// Reads `target`; diagnostic offsets count from its first byte.
    public init(_ target: String) {
        var target = target
        self = target.withUTF8 { Self(target: UnsafeRawBufferPointer($0), baseOffset: 0) }
    }

    private init(target: UnsafeRawBufferPointer, baseOffset: Int) {
        let queryMark = ASCII.firstIndex(of: ASCII.questionMark, in: target, from: 0, to: target.count)
        let pathBytes = UnsafeRawBufferPointer(rebasing: target[0 ..< (queryMark ?? target.count)])
        // A HAP path is matched on its bytes and kept as the literal: no string is built for it.
        if let known = Self.endpointPaths.first(where: { ASCII.equals(pathBytes, $0.path) }) {
            (endpoint, path) = known
        } else {
            (endpoint, path) = (.unknown, String(decoding: pathBytes, as: UTF8.self))
        }
        diagnostics = []
        guard let queryMark else {
            query = nil
            characteristicQuery = nil
            return
        }
        let queryBytes = UnsafeRawBufferPointer(rebasing: target[(queryMark + 1)...])
        query = String(decoding: queryBytes, as: UTF8.self)
        characteristicQuery = endpoint == .characteristics
            ? HAPCharacteristicQuery(query: queryBytes, baseOffset: baseOffset + queryMark + 1, diagnostics: &diagnostics)
            : nil
    }
}

/// A query part HAP implementations would refuse, kept instead of failing the request.
public typealias HAPRequestTargetDiagnostic = HTTPMessageDiagnostic<HAPRequestTargetProblem>

/// What is wrong with the query part a `HAPRequestTargetDiagnostic` reports; its offset is that
/// of the parameter or entry concerned.
public enum HAPRequestTargetProblem: Hashable, Sendable {
    /// An `id` entry that is not `aid.iid` in decimal, each within 64 bits.
    case malformedCharacteristicID(String)
    /// A `meta`, `perms`, `type` or `ev` value other than `0`, `1`, `true` or `false`.
    case invalidFlagValue(name: String, value: String)
    /// `true` or `false` as a flag value: HAP-NodeJS accepts it, HomeKitADK accepts only
    /// `0` and `1`.
    case textualFlagValue(name: String)
    /// A parameter given twice; the first one counts.
    case duplicateParameter(String)
    case unknownParameter(String)
    /// A `/characteristics` query without `id`.
    case missingCharacteristicIDs
}
