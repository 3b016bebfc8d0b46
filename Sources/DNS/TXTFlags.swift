/// A TXT value that is a word of flag bits (HAP's `ff` and `sf`, Matter's `PH`, `JF` and `T`):
/// the bits its protocol defines, and what each bit set means.
protocol TXTFlags: OptionSet where RawValue == UInt64, Element == Self {
    static var known: Self { get }
    /// The meanings of the defined bits set, lowest bit first.
    var meanings: [String] { get }
}

extension TXTFlags {
    /// The meanings in `table` of the flags set, in its order.
    func meanings(from table: [(flag: Self, meaning: String)]) -> [String] {
        table.filter { contains($0.flag) }.map(\.meaning)
    }

    /// The bits set that the protocol does not define.
    var undefinedBits: UInt64 { subtracting(Self.known).rawValue }

    /// "NAME 0xVALUE: meaning; …; undefined bits 0xBITS", or `ifNone` after the colon when no
    /// bit has a meaning to give.
    func explanation(_ name: String, ifNone: String) -> String {
        let undefined = undefinedBits
        let all = meanings + (undefined != 0 ? ["undefined bits 0x\(String(undefined, radix: 16))"] : [])
        return "\(name) 0x\(String(rawValue, radix: 16)): " + (all.isEmpty ? ifNone : all.joined(separator: "; "))
    }
}
