import Capture

/// A one-line progress bar on standard error while a capture file is read: bytes and packets
/// done, rate and time left. Drawn at most ten times a second and erased at the end, so it
/// never mixes with the report.
final class ProgressBar {
    private let start = ContinuousClock.now
    private var lastDraw: ContinuousClock.Instant?
    private var drawn = false

    /// Redraws when a tenth of a second has passed since the last drawing.
    func update(_ progress: CaptureProgress, packets: Int) {
        let now = ContinuousClock.now
        if let lastDraw, now - lastDraw < .milliseconds(100) { return }
        lastDraw = now
        let elapsed = Self.seconds(now - start)
        let rate = elapsed > 0 ? Double(progress.bytesRead) / elapsed : 0
        var line = ""
        if let fraction = progress.fractionCompleted, let total = progress.totalBytes {
            let filled = Int(fraction * 24)
            line += "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: 24 - filled) + "] "
            line += "\(Int(fraction * 100))%  \(Self.bytes(progress.bytesRead)) of \(Self.bytes(total))"
            if rate > 0, fraction < 1 {
                line += "  \(Self.clock(Double(total - progress.bytesRead) / rate)) left"
            }
        } else {
            line += Self.bytes(progress.bytesRead)
        }
        line += "  \(packets) packets  \(Self.bytes(Int(rate)))/s"
        // Carriage return and erase-line (ECMA-48 EL) redraw in place.
        StandardError.write("\r\u{1B}[K" + line)
        drawn = true
    }

    /// Erases the bar.
    func clear() {
        guard drawn else { return }
        StandardError.write("\r\u{1B}[K")
        drawn = false
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    private static func bytes(_ count: Int) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(count) B" : "\(Int(value * 10) / 10).\(Int(value * 10) % 10) \(units[unit])"
    }

    /// `4:05`, or `1:02:03` past an hour.
    private static func clock(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds < 360_000 else { return "--:--" }
        let whole = Int(seconds.rounded(.up))
        let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
    }
}
