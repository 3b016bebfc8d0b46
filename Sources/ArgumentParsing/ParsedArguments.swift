/// What the user asked for, after parsing.
public struct ParsedArguments: Sendable, Equatable {
    /// Values by option key, in the order given; a flag is stored with no values.
    public private(set) var options: [String: [String]] = [:]
    public private(set) var positionals: [String] = []

    public init() {}

    mutating func add(_ option: OptionSpec, value: String?) {
        options[option.key, default: []].append(contentsOf: value.map { [$0] } ?? [])
    }

    mutating func addPositional(_ value: String) {
        positionals.append(value)
    }

    /// Whether the option (any of its spellings' key, e.g. `--quiet`) was given.
    public func has(_ key: String) -> Bool { options[key] != nil }

    /// The last value given for `key`, so a later `--format` overrides an earlier one.
    public func value(_ key: String) -> String? { options[key]?.last }

    /// Every value given for a repeatable option.
    public func values(_ key: String) -> [String] { options[key] ?? [] }
}

/// A mistake on the command line, worded for the user; `hapscope` prints it and exits with 2.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
