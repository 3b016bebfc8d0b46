import HAPEvents
import Packets

/// Times as reports show them: seconds since the first packet of the input, like Wireshark's
/// "seconds since beginning of capture", with the absolute time of the first packet given once.
///
/// Everything is computed from the capture's integer seconds and nanoseconds, so the same input
/// always gives the same text (the NDJSON event stream is compared byte for byte).
public struct CaptureClock: Sendable, Hashable {
    /// The first packet's time; nil until one has been seen (an empty capture has none).
    public var origin: Timestamp?

    public init(origin: Timestamp? = nil) {
        self.origin = origin
    }

    /// Nanoseconds from the origin to `time` (negative for a packet stamped earlier); nil
    /// without an origin, or when the difference does not fit 64 bits.
    func nanosecondsSinceOrigin(_ time: Timestamp) -> Int64? {
        guard let origin else { return nil }
        let (seconds, secondsOverflow) = time.seconds.subtractingReportingOverflow(origin.seconds)
        let (scaled, scaleOverflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, sumOverflow) = scaled.addingReportingOverflow(Int64(time.nanoseconds) - Int64(origin.nanoseconds))
        return secondsOverflow || scaleOverflow || sumOverflow ? nil : total
    }

    /// Seconds since the origin as a JSON number: exact to the nanosecond in its shortest form
    /// (`12.345678`), because a whole number of nanoseconds divided by 10⁹ rounds to the double
    /// nearest that decimal.
    public func relativeSeconds(_ time: Timestamp) -> Double? {
        nanosecondsSinceOrigin(time).map { Double($0) / 1e9 }
    }

    /// Seconds from `start` to `end`, exact to the nanosecond (see `relativeSeconds`).
    public static func seconds(from start: Timestamp, to end: Timestamp) -> Double? {
        CaptureClock(origin: start).relativeSeconds(end)
    }

    /// `12.345678`: seconds since the origin with six decimals, as text reports print them;
    /// the absolute time when there is no origin.
    public func relativeText(_ time: Timestamp) -> String {
        guard let nanoseconds = nanosecondsSinceOrigin(time) else { return Self.iso8601(time) }
        return Self.fixed(nanoseconds, decimals: 6)
    }

    /// `2026-11-30T09:43:04.980333Z`: UTC, with nine decimals when the capture has nanoseconds
    /// and six otherwise.
    public static func iso8601(_ time: Timestamp) -> String {
        let (year, month, day, secondOfDay) = civilTime(time)
        let fraction = time.nanoseconds % 1000 == 0
            ? pad(Int64(time.nanoseconds / 1000), 6) : pad(Int64(time.nanoseconds), 9)
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):"
            + "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)).\(fraction)Z"
    }

    /// A duration in seconds as a JSON number, rounded to the nanosecond so that the floating-point
    /// noise of a subtraction (`0.012000000000000001`) does not reach the output.
    public static func roundedSeconds(_ seconds: Double) -> Double {
        (seconds * 1e9).rounded() / 1e9
    }

    /// A duration as a person reads it: `850 µs`, `12.3 ms`, `1.204 s`, `3 min 12 s`.
    public static func durationText(_ seconds: Double) -> String {
        let magnitude = abs(seconds)
        let sign = seconds < 0 ? "-" : ""
        switch magnitude {
        case ..<0.001: return sign + "\(Int((magnitude * 1e6).rounded())) µs"
        case ..<1: return sign + decimal(magnitude * 1000, 1) + " ms"
        case ..<120: return sign + decimal(magnitude, 3) + " s"
        default:
            let whole = Int(magnitude.rounded())
            return sign + (whole >= 3600 ? "\(whole / 3600) h \(whole / 60 % 60) min" : "\(whole / 60) min \(whole % 60) s")
        }
    }

    /// `value` with `decimals` digits after the point, without Foundation's formatters.
    static func decimal(_ value: Double, _ decimals: Int) -> String {
        var scale: Double = 1
        for _ in 0 ..< decimals { scale *= 10 }
        guard value.isFinite, abs(value * scale) < 9e18 else { return value.description }
        return fixed(Int64((value * scale).rounded()), decimals: decimals, unit: Int64(scale))
    }

    /// A fixed-point number: `nanoseconds` (or any count of `unit`ths) with `decimals` digits.
    static func fixed(_ count: Int64, decimals: Int, unit: Int64 = 1_000_000_000) -> String {
        let negative = count < 0
        let magnitude = count.magnitude
        let whole = magnitude / UInt64(unit)
        var fraction = magnitude % UInt64(unit)
        var digits = String(unit).count - 1
        while digits > decimals {
            fraction /= 10
            digits -= 1
        }
        let text = decimals == 0 ? "\(whole)" : "\(whole)." + pad(Int64(fraction), decimals)
        return negative ? "-" + text : text
    }

    /// Zero-padded to `width` digits.
    static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let padded = digits.count < width ? String(repeating: "0", count: width - digits.count) + digits : digits
        return value < 0 ? "-" + padded : padded
    }

    /// The UTC date and second of the day of a capture time, before 1970 too.
    static func civilTime(_ time: Timestamp) -> (year: Int64, month: Int64, day: Int64, secondOfDay: Int64) {
        // Days and seconds of day with floor division, so times before 1970 work too.
        var days = time.seconds / 86_400
        var secondOfDay = time.seconds % 86_400
        if secondOfDay < 0 {
            days -= 1
            secondOfDay += 86_400
        }
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        return (year, month, day, secondOfDay)
    }

    /// The proleptic Gregorian date of a day count from 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`, valid over the whole Int64 range a capture can hold).
    static func civilDate(daysSinceEpoch days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
