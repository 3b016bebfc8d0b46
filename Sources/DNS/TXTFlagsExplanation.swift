/// How a TXT value that is a word of flag bits is explained (HAP's `ff` and `sf`, Matter's `PH`,
/// `JF` and `T`): its name and value in hex, then what each bit set means.
enum TXTFlagsExplanation {
    /// "NAME 0xVALUE: meaning; …; undefined bits 0xBITS", or `ifNone` after the colon when no
    /// bit has a meaning to give.
    static func text(_ name: String, _ value: UInt64, meanings: [String], undefinedBits: UInt64, ifNone: String) -> String {
        let all = meanings + (undefinedBits != 0 ? ["undefined bits 0x\(String(undefinedBits, radix: 16))"] : [])
        return "\(name) 0x\(String(value, radix: 16)): " + (all.isEmpty ? ifNone : all.joined(separator: "; "))
    }
}
