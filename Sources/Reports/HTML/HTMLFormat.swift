import HAPEvents
import HAPCatalog
import HAPJSON
import Packets

/// How the HTML report spells times, durations and numbers. Everything is computed from the
/// capture alone, without locale or time zone, so that one input always gives the same bytes.
enum HTMLFormat {
    /// `2026-11-30 04:03:04.525802 UTC`: capture time in UTC, to the microsecond pcap records.
    static func utc(_ time: Timestamp) -> String {
        let (year, month, day, secondOfDay) = CaptureClock.civilTime(time)
        let pad = CaptureClock.pad
        return "\(year)-\(pad(month, 2))-\(pad(day, 2)) "
            + "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
            + ".\(pad(Int64(time.nanoseconds / 1000), 6)) UTC"
    }

    /// `+1.234 s`: seconds since the start of the capture.
    static func offset(_ seconds: Double) -> String {
        (seconds < 0 ? "−" : "+") + fixed(abs(seconds), decimals: 3) + " s"
    }

    /// A duration a reader takes in at a glance: `850 µs`, `12.3 ms`, `2.41 s`, `3 min 5 s`.
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "—" }
        let magnitude = abs(seconds)
        let sign = seconds < 0 ? "−" : ""
        switch magnitude {
        case ..<0.001: return sign + fixed(magnitude * 1e6, decimals: 0) + " µs"
        case ..<0.1: return sign + fixed(magnitude * 1e3, decimals: 1) + " ms"
        case ..<1: return sign + fixed(magnitude * 1e3, decimals: 0) + " ms"
        case ..<120: return sign + fixed(magnitude, decimals: 2) + " s"
        default:
            let whole = Int64(min(magnitude, 1e15))
            return sign + "\(whole / 60) min \(whole % 60) s"
        }
    }

    /// `value` rounded to `decimals` places (at most 9), for reading: a true minus sign (−).
    static func fixed(_ value: Double, decimals: Int) -> String {
        let text = decimal(value, decimals: decimals)
        return text.hasPrefix("-") ? "−" + text.dropFirst() : text
    }

    /// `value` rounded to `decimals` places (at most 9), as SVG and CSS numbers are written:
    /// ASCII digits, `-`, no exponent, no locale. Values too large for fixed notation fall back
    /// to Swift's shortest round-trip form.
    static func decimal(_ value: Double, decimals: Int) -> String {
        let places = max(0, min(decimals, 9))
        var scale = 1.0
        for _ in 0 ..< places { scale *= 10 }
        let scaled = (value * scale).rounded()
        guard scaled.isFinite, abs(scaled) < 9e15 else { return value.description }
        let integer = Int64(scaled)
        let digits = String(integer.magnitude)
        let sign = integer < 0 ? "-" : ""
        guard places > 0 else { return sign + digits }
        let padded = String(repeating: "0", count: max(0, places + 1 - digits.count)) + digits
        return sign + padded.dropLast(places) + "." + padded.suffix(places)
    }

    /// A measured value as it was sent: whole numbers without a fraction (`40`), others in their
    /// shortest exact form (`21.5`), with a true minus sign.
    static func number(_ value: Double) -> String {
        let text = value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : value.description
        return text.hasPrefix("-") ? "−" + text.dropFirst() : text
    }

    /// `17,546`: a count with thousands separators.
    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = value < 0 ? "−" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result += "," }
            result.append(digit)
        }
        return result
    }

    /// `1 read` / `3 reads`.
    static func count(_ value: Int, _ singular: String, _ plural: String? = nil) -> String {
        count(value) + " " + (value == 1 ? singular : plural ?? singular + "s")
    }

    /// A characteristic value as a user reads it: with its unit, and with the catalogue's name
    /// of an enumeration value (`1 (SECURED)`).
    static func value(_ value: CharacteristicValue, type: HAPUUID?, unit: CharacteristicUnit?) -> String {
        var text = value.description
        if let unit, value.numericValue != nil { text += " " + ValueText.unitSymbol(unit) }
        if let type, let definition = HAPCatalog.characteristic(type), !definition.validValues.isEmpty {
            let integer: Int64? = switch value {
            case .unsignedInteger(let number): Int64(exactly: number)
            case .integer(let number): number
            default: nil
            }
            if let integer, let name = definition.name(ofValue: integer) { text += " (\(name))" }
        }
        return text
    }
}
