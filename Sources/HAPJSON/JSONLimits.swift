import WireParsing

extension LimitName {
    public static let jsonDocument = LimitName("json.document")
    public static let jsonDepth = LimitName("json.depth")
    public static let jsonValues = LimitName("json.values")
    public static let jsonString = LimitName("json.string")
    public static let jsonNumber = LimitName("json.number")
}

/// Bounds on what the JSON reader accepts, so that hostile input cannot exhaust memory or time.
///
/// The defaults are far above what any accessory sends (the largest real `/accessories` bodies are
/// around 100 KB and eight levels deep) and far below what would hurt the analyzer.
public struct JSONLimits: Hashable, Sendable {
    /// The most bytes one document may have.
    public var maximumDocumentSize: Int
    /// How deeply arrays and objects may nest; the top-level container is depth 1. At most
    /// `supportedDepth`.
    public var maximumDepth: Int {
        didSet { maximumDepth = min(maximumDepth, Self.supportedDepth) }
    }
    /// The most values (of any kind, containers included) one document may hold.
    public var maximumValueCount: Int
    /// The most bytes one decoded string may have. HAP-NodeJS allows `data` values up to 2 MiB,
    /// which base64 makes 2.7 MiB.
    public var maximumStringLength: Int
    /// The most characters one number literal may have.
    public var maximumNumberLength: Int

    /// The deepest nesting any limit may allow. Parsing is iterative, but values are walked
    /// recursively afterwards (comparison, hashing, writing, and Swift's release of nested arrays),
    /// and a value nested a million deep would exhaust a thread's stack there.
    public static let supportedDepth = 1024

    public init(
        maximumDocumentSize: Int = 16 << 20,
        maximumDepth: Int = 64,
        maximumValueCount: Int = 1 << 20,
        maximumStringLength: Int = 4 << 20,
        maximumNumberLength: Int = 128
    ) {
        self.maximumDocumentSize = maximumDocumentSize
        self.maximumDepth = min(maximumDepth, Self.supportedDepth)
        self.maximumValueCount = maximumValueCount
        self.maximumStringLength = maximumStringLength
        self.maximumNumberLength = maximumNumberLength
    }
}
