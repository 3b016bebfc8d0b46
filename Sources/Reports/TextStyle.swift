import HAPEvents
/// Colors for text reports, by what the text means rather than by hue.
///
/// Color is applied only when the output is a terminal and the user did not opt out (`--no-color`,
/// the `NO_COLOR` convention); the command line decides and hands reports `.plain` otherwise.
/// Padding is computed on the plain text, so colored and plain reports align the same.
public struct TextStyle: Sendable, Hashable {
    public enum Role: Sendable, Hashable {
        /// Section headings and the names of things.
        case heading
        /// Packet numbers and times: always present, rarely the point.
        case dim
        /// Passed checks, successful outcomes.
        case good
        /// Failed checks, errors, refusals.
        case bad
        /// Diagnostics and things worth a second look.
        case warning
        /// Something that changed since the last time it was seen.
        case changed
        /// The controller's side of a conversation.
        case controller
        /// The accessory's side of a conversation.
        case accessory
    }

    public var usesColor: Bool

    public init(usesColor: Bool) {
        self.usesColor = usesColor
    }

    public static let plain = TextStyle(usesColor: false)
    public static let colored = TextStyle(usesColor: true)

    /// `text` wrapped in the SGR sequence of `role` (ECMA-48 §8.3.117), or unchanged without color.
    public func paint(_ text: String, _ role: Role) -> String {
        guard usesColor, !text.isEmpty else { return text }
        return "\u{1B}[\(Self.code(role))m\(text)\u{1B}[0m"
    }

    private static func code(_ role: Role) -> String {
        switch role {
        case .heading: "1"
        case .dim: "2"
        case .good: "32"
        case .bad: "1;31"
        case .warning: "33"
        case .changed: "1;33"
        case .controller: "36"
        case .accessory: "35"
        }
    }
}
