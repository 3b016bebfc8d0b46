/// The `perms` of a characteristic. (HAP: characteristic permissions; ADK emits them in the order
/// `pr, pw, ev, aa, tw, wr, hd`, which `wireNames` follows.)
public struct CharacteristicPermissions: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `pr`: readable by a paired controller.
    public static let pairedRead = CharacteristicPermissions(rawValue: 1 << 0)
    /// `pw`: writable by a paired controller.
    public static let pairedWrite = CharacteristicPermissions(rawValue: 1 << 1)
    /// `ev`: supports event notifications.
    public static let events = CharacteristicPermissions(rawValue: 1 << 2)
    /// `aa`: writes may carry additional authorization data (`authData`).
    public static let additionalAuthorization = CharacteristicPermissions(rawValue: 1 << 3)
    /// `tw`: writes must be timed (`PUT /prepare` first).
    public static let timedWrite = CharacteristicPermissions(rawValue: 1 << 4)
    /// `wr`: writes may ask for a write response (`"r": true`).
    public static let writeResponse = CharacteristicPermissions(rawValue: 1 << 5)
    /// `hd`: hidden from the user.
    public static let hidden = CharacteristicPermissions(rawValue: 1 << 6)

    /// Every permission with its wire name, in emission order.
    public static let wireNames: [(permission: CharacteristicPermissions, name: String)] = [
        (.pairedRead, "pr"), (.pairedWrite, "pw"), (.events, "ev"), (.additionalAuthorization, "aa"),
        (.timedWrite, "tw"), (.writeResponse, "wr"), (.hidden, "hd"),
    ]

    /// The permission named by one `perms` string; nil for a string HAP does not define.
    public init?(wireName: String) {
        guard let entry = Self.wireNames.first(where: { $0.name == wireName }) else { return nil }
        self = entry.permission
    }

    /// The wire names of the permissions present, in emission order.
    public var names: [String] {
        Self.wireNames.filter { contains($0.permission) }.map(\.name)
    }

    /// `pr,pw,ev`.
    public var description: String {
        names.joined(separator: ",")
    }
}
