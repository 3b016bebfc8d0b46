import HAPEvents
/// How much of a capture the HTML report keeps. A report must open in a browser whatever the
/// capture's size, and the builder's memory must not grow with what a hostile peer sends, so every
/// list that grows with the capture keeps its first entries up to a cap, every text from the
/// capture is clipped, and the report says what it left out.
public struct HTMLReportLimits: Sendable, Hashable {
    /// Rows of the characteristic timeline (reads, writes, events, subscriptions).
    public var timelineEntries: Int
    /// Numeric characteristics that get a plot of their own.
    public var plottedCharacteristics: Int
    /// Values drawn in one characteristic's plot.
    public var pointsPerPlot: Int
    /// Pairing exchanges drawn as ladders.
    public var pairingLadders: Int
    /// Messages drawn in one ladder (a pair-setup has six; more means a peer misbehaved).
    public var messagesPerLadder: Int
    /// Rows of the mDNS table (advertisements and browse queries).
    public var discoveryEntries: Int
    /// Service instances whose TXT record is explained.
    public var discoveryInstances: Int
    /// Accessories of one database shown in the tree.
    public var accessoriesPerDatabase: Int
    /// Evidence lines shown for one finding.
    public var evidencePerFinding: Int
    /// Capture problems listed one by one (all are counted).
    public var problems: Int
    /// Entries of one small list: TLV items of a pairing message, TXT keys of an advertisement,
    /// problems of one row.
    public var itemsPerList: Int
    /// Characters of one text from the capture (a characteristic value, a name, a TXT value).
    public var textCharacters: Int
    /// Databases with at most this many accessories start unfolded in the tree.
    public var unfoldedTreeAccessories: Int

    public init(
        timelineEntries: Int = 5_000, plottedCharacteristics: Int = 64, pointsPerPlot: Int = 2_000,
        pairingLadders: Int = 200, messagesPerLadder: Int = 16, discoveryEntries: Int = 2_000, discoveryInstances: Int = 128,
        accessoriesPerDatabase: Int = 500, evidencePerFinding: Int = 100, problems: Int = 200, itemsPerList: Int = 64,
        textCharacters: Int = 240, unfoldedTreeAccessories: Int = 8
    ) {
        self.timelineEntries = timelineEntries
        self.plottedCharacteristics = plottedCharacteristics
        self.pointsPerPlot = pointsPerPlot
        self.pairingLadders = pairingLadders
        self.messagesPerLadder = messagesPerLadder
        self.discoveryEntries = discoveryEntries
        self.discoveryInstances = discoveryInstances
        self.accessoriesPerDatabase = accessoriesPerDatabase
        self.evidencePerFinding = evidencePerFinding
        self.problems = problems
        self.itemsPerList = itemsPerList
        self.textCharacters = textCharacters
        self.unfoldedTreeAccessories = unfoldedTreeAccessories
    }

    /// `text`, cut to `textCharacters` with the number of characters left out, so that one
    /// multi-megabyte string neither stays in memory nor reaches the document.
    func clipped(_ text: String) -> String {
        // A string has no more characters than UTF-8 bytes, so short text passes without counting.
        guard text.utf8.count > textCharacters else { return text }
        let kept = text.prefix(max(textCharacters, 0))
        guard kept.endIndex < text.endIndex else { return text }
        return kept + "… (\(HTMLFormat.count(text.utf8.count - kept.utf8.count, "more byte")))"
    }
}
