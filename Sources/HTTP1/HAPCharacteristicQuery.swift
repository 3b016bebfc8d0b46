import WireParsing

/// One characteristic: accessory instance ID and characteristic instance ID, `aid.iid` in a
/// query. Real databases use `aid` values above 2^32, so both are 64 bits.
public struct HAPCharacteristicID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The accessory's instance ID; 1 is the primary accessory or the bridge.
    public var aid: UInt64
    /// The characteristic's instance ID, unique within its accessory.
    public var iid: UInt64

    public init(aid: UInt64, iid: UInt64) {
        self.aid = aid
        self.iid = iid
    }

    public static func < (lhs: HAPCharacteristicID, rhs: HAPCharacteristicID) -> Bool {
        (lhs.aid, lhs.iid) < (rhs.aid, rhs.iid)
    }

    /// `1.10`.
    public var description: String { "\(aid).\(iid)" }
}

/// The query of `GET /characteristics?id=1.10,2.3&meta=1&perms=1&type=1&ev=1`.
/// HAP §5.1 of the fact sheet.
public struct HAPCharacteristicQuery: Hashable, Sendable {
    /// The characteristics asked for, in query order; malformed entries are left out.
    public var ids: [HAPCharacteristicID]
    /// `meta`: include format, unit and value constraints. nil when absent or invalid.
    public var includeMetadata: Bool?
    /// `perms`: include permissions.
    public var includePermissions: Bool?
    /// `type`: include the characteristic type.
    public var includeType: Bool?
    /// `ev`: include this connection's event subscription state.
    public var includeEventState: Bool?

    public init(
        ids: [HAPCharacteristicID], includeMetadata: Bool? = nil, includePermissions: Bool? = nil,
        includeType: Bool? = nil, includeEventState: Bool? = nil
    ) {
        self.ids = ids
        self.includeMetadata = includeMetadata
        self.includePermissions = includePermissions
        self.includeType = includeType
        self.includeEventState = includeEventState
    }

    /// Reads the query (the text after `?`) that fills `cursor`'s remaining bytes, leniently:
    /// what HAP implementations would refuse is added to `diagnostics`.
    public init(parsing cursor: inout ByteCursor, diagnostics: inout [HAPRequestTargetDiagnostic]) {
        let baseOffset = cursor.offset
        self = cursor.readRemaining().withUnsafeBytes {
            Self(query: $0, baseOffset: baseOffset, diagnostics: &diagnostics)
        }
    }

    /// The parameters HAP defines, in the order of the bits that mark them seen.
    private enum Parameter: Int, CaseIterable {
        case id, meta, perms, type, ev

        var name: StaticString {
            switch self {
            case .id: "id"
            case .meta: "meta"
            case .perms: "perms"
            case .type: "type"
            case .ev: "ev"
            }
        }

        /// The parameter `bytes` name, compared as bytes: a HAP name needs no string.
        init?(_ bytes: UnsafeRawBufferPointer) {
            guard let parameter = Self.allCases.first(where: { ASCII.equals(bytes, $0.name) }) else { return nil }
            self = parameter
        }
    }

    init(query: UnsafeRawBufferPointer, baseOffset: Int, diagnostics: inout [HAPRequestTargetDiagnostic]) {
        self.init(ids: [])
        // HAP's own parameters are marked in a bit each; only others need a set (which a hostile
        // query of many distinct names keeps linear).
        var seenKnown: UInt8 = 0
        var seenOthers = Set<String>()
        var parameterStart = 0
        while parameterStart <= query.count {
            let parameterEnd = ASCII.firstIndex(of: ASCII.ampersand, in: query, from: parameterStart, to: query.count)
                ?? query.count
            defer { parameterStart = parameterEnd + 1 }
            guard parameterEnd > parameterStart else { continue }
            let equalsSign = ASCII.firstIndex(of: ASCII.equalsSign, in: query, from: parameterStart, to: parameterEnd)
            let nameBytes = UnsafeRawBufferPointer(rebasing: query[parameterStart ..< (equalsSign ?? parameterEnd)])
            let valueRange = equalsSign.map { $0 + 1 ..< parameterEnd } ?? parameterEnd ..< parameterEnd
            let offset = baseOffset + parameterStart
            guard let parameter = Parameter(nameBytes) else {
                let name = String(decoding: nameBytes, as: UTF8.self)
                let problem: HAPRequestTargetProblem = seenOthers.insert(name).inserted ? .unknownParameter(name) : .duplicateParameter(name)
                diagnostics.append(HAPRequestTargetDiagnostic(problem, offset: offset))
                continue
            }
            guard seenKnown & 1 << parameter.rawValue == 0 else {
                diagnostics.append(HAPRequestTargetDiagnostic(.duplicateParameter(parameter.name.description), offset: offset))
                continue
            }
            seenKnown |= 1 << parameter.rawValue
            switch parameter {
            case .id:
                ids = Self.parseIDs(query, valueRange, baseOffset: baseOffset, diagnostics: &diagnostics)
            case .meta:
                includeMetadata = Self.parseFlag(parameter, query, valueRange, offset: offset, diagnostics: &diagnostics)
            case .perms:
                includePermissions = Self.parseFlag(parameter, query, valueRange, offset: offset, diagnostics: &diagnostics)
            case .type:
                includeType = Self.parseFlag(parameter, query, valueRange, offset: offset, diagnostics: &diagnostics)
            case .ev:
                includeEventState = Self.parseFlag(parameter, query, valueRange, offset: offset, diagnostics: &diagnostics)
            }
        }
        if seenKnown & 1 << Parameter.id.rawValue == 0 {
            diagnostics.append(HAPRequestTargetDiagnostic(.missingCharacteristicIDs, offset: baseOffset))
        }
    }

    /// Reads `aid.iid` entries separated by commas.
    private static func parseIDs(
        _ query: UnsafeRawBufferPointer, _ range: Range<Int>, baseOffset: Int,
        diagnostics: inout [HAPRequestTargetDiagnostic]
    ) -> [HAPCharacteristicID] {
        var ids: [HAPCharacteristicID] = []
        // One allocation: an entry takes at least `1.1,`, so this bounds the count.
        ids.reserveCapacity(range.count / 4 + 1)
        var entryStart = range.lowerBound
        while entryStart <= range.upperBound {
            let entryEnd = ASCII.firstIndex(of: ASCII.comma, in: query, from: entryStart, to: range.upperBound)
                ?? range.upperBound
            let dot = ASCII.firstIndex(of: ASCII.period, in: query, from: entryStart, to: entryEnd)
            if let dot, let aid = parseDecimal(query, entryStart ..< dot), let iid = parseDecimal(query, dot + 1 ..< entryEnd) {
                ids.append(HAPCharacteristicID(aid: aid, iid: iid))
            } else {
                let text = String(decoding: query[entryStart ..< entryEnd], as: UTF8.self)
                diagnostics.append(HAPRequestTargetDiagnostic(.malformedCharacteristicID(text), offset: baseOffset + entryStart))
            }
            entryStart = entryEnd + 1
        }
        return ids
    }

    /// Decimal digits only, at least one, within 64 bits.
    private static func parseDecimal(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> UInt64? {
        guard !range.isEmpty else { return nil }
        var value: UInt64 = 0
        for index in range {
            guard ASCII.isDigit(bytes[index]) else { return nil }
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = shifted.addingReportingOverflow(UInt64(bytes[index] &- 0x30))
            guard !overflowA, !overflowB else { return nil }
            value = sum
        }
        return value
    }

    /// `0` and `1` (HomeKitADK), also `true` and `false` (HAP-NodeJS).
    private static func parseFlag(
        _ parameter: Parameter, _ query: UnsafeRawBufferPointer, _ range: Range<Int>, offset: Int,
        diagnostics: inout [HAPRequestTargetDiagnostic]
    ) -> Bool? {
        let value = UnsafeRawBufferPointer(rebasing: query[range])
        if ASCII.equals(value, "1") { return true }
        if ASCII.equals(value, "0") { return false }
        let name = parameter.name.description
        if ASCII.equals(value, "true") || ASCII.equals(value, "false") {
            diagnostics.append(HAPRequestTargetDiagnostic(.textualFlagValue(name: name), offset: offset))
            return ASCII.equals(value, "true")
        }
        diagnostics.append(HAPRequestTargetDiagnostic(
            .invalidFlagValue(name: name, value: String(decoding: value, as: UTF8.self)), offset: offset))
        return nil
    }
}
