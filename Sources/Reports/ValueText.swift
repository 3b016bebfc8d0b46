import HAPEvents
import HAPCatalog
import HAPJSON
import WireParsing

/// Characteristic values as text reports show them: with their unit, the catalogue's name for
/// an enumerated value, and capture strings made safe to print.
enum ValueText {
    /// `21.5 °C`, `80 %`, `1 (Secured)`, `true`, `"Desk Lamp"`, `12 bytes 0102…0b0c`.
    static func describe(_ value: CharacteristicValue, type: HAPUUID? = nil, unit: CharacteristicUnit? = nil) -> String {
        switch value {
        case .null: return "null"
        case .bool(let bool): return String(bool)
        case .unsignedInteger(let number):
            return withUnit(String(number), unit) + enumerationName(Int64(exactly: number), type)
        case .integer(let number):
            return withUnit(String(number), unit) + enumerationName(number, type)
        case .float(let number):
            return withUnit(number.description, unit)
        case .string(let text):
            return TerminalText.sanitized(text.debugDescription)
        case .bytes(let bytes):
            return bytesSummary(bytes)
        case .untyped(let json):
            return TerminalText.sanitized(json.description)
        }
    }

    /// The value with the issues found in it: `150 % (above the maximum 100, declared)`.
    static func describe(_ value: InterpretedValue, type: HAPUUID? = nil, unit: CharacteristicUnit? = nil) -> String {
        let text = describe(value.value, type: type, unit: unit)
        guard !value.issues.isEmpty else { return text }
        return text + " (" + value.issues.map(\.description).joined(separator: "; ") + ")"
    }

    /// `4 bytes 01020304`, or the first and last two bytes of a longer value.
    static func bytesSummary(_ bytes: some Collection<UInt8>) -> String {
        let count = bytes.count == 1 ? "1 byte" : "\(bytes.count) bytes"
        if bytes.isEmpty { return count }
        if bytes.count <= 8 { return "\(count) \(Hex.encode(bytes))" }
        return "\(count) \(Hex.encode(bytes.prefix(2)))…\(Hex.encode(bytes.suffix(2)))"
    }

    static func unitSymbol(_ unit: CharacteristicUnit) -> String {
        switch unit {
        case .celsius: "°C"
        case .percentage: "%"
        case .arcdegrees: "°"
        case .lux: "lx"
        case .seconds: "s"
        }
    }

    private static func withUnit(_ number: String, _ unit: CharacteristicUnit?) -> String {
        unit.map { "\(number) \(unitSymbol($0))" } ?? number
    }

    private static func enumerationName(_ value: Int64?, _ type: HAPUUID?) -> String {
        guard let value, let type, let name = HAPCatalog.characteristic(type)?.name(ofValue: value) else { return "" }
        return " (\(name))"
    }
}
