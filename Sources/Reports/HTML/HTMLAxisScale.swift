import HAPEvents
/// A plot axis: a range widened to round numbers and the ticks on it, each step 1, 2, 2.5 or 5
/// times a power of ten, so that labels read `21.5 22.0 22.5`, not `21.53 22.04`.
struct HTMLAxisScale: Hashable {
    let lower: Double
    let upper: Double
    let step: Double
    /// Decimal places every tick label needs.
    let decimals: Int

    /// The scale for values from `minimum` to `maximum` with about `tickCount` ticks, on whole
    /// numbers only when `integral`; nil when the values are not finite or their range is too wide
    /// to compute (`Double` overflows).
    init?(minimum: Double, maximum: Double, tickCount: Int = 5, integral: Bool = false) {
        guard minimum.isFinite, maximum.isFinite, minimum <= maximum, tickCount > 1 else { return nil }
        var low = minimum
        var high = maximum
        if low == high {
            // One value: centre it in a band a tenth of its size (or ±1 around zero).
            let pad = abs(low) > 0 ? abs(low) / 10 : 1
            low -= pad
            high += pad
        }
        let range = high - low
        guard range.isFinite, range > 0 else { return nil }
        var step = Self.roundStep(range / Double(tickCount - 1))
        if integral { step = step < 1 ? 1 : step == step.rounded() ? step : step * 2 }
        let lower = (low / step).rounded(.down) * step
        let upper = (high / step).rounded(.up) * step
        guard lower.isFinite, upper.isFinite else { return nil }
        // A billionth of a step is rounding noise in the division, not a value off the scale.
        let slack = step * 1e-9
        if lower <= low + slack, upper >= high - slack, upper > lower {
            self.lower = lower
            self.upper = upper
            self.step = step
        } else {
            // The values are so large against their spread that rounding to the step loses them
            // (1e15 + 0.125): keep the exact range, ticks at its ends and between.
            self.lower = low
            self.upper = high
            self.step = range / Double(tickCount - 1)
        }
        decimals = Self.decimals(of: self.step)
    }

    /// The tick values, lowest first; at most a few dozen whatever the step's rounding did.
    var ticks: [Double] {
        var ticks: [Double] = []
        var index = 0.0
        while ticks.count < 32 {
            let value = lower + index * step
            guard value <= upper + step / 1e6 else { break }
            ticks.append(value)
            index += 1
        }
        return ticks
    }

    /// Where `value` falls between `start` (at `lower`) and `end` (at `upper`).
    func position(of value: Double, from start: Double, to end: Double) -> Double {
        start + (value - lower) / (upper - lower) * (end - start)
    }

    /// The smallest 1, 2, 2.5 or 5 × 10ⁿ at least `rough`.
    private static func roundStep(_ rough: Double) -> Double {
        var power = 1.0
        // Bounded by Double's exponent range: at most about 330 steps either way.
        while power * 10 <= rough, power < .greatestFiniteMagnitude / 10 { power *= 10 }
        while power > rough, power > .leastNormalMagnitude * 10 { power /= 10 }
        for multiple in [1.0, 2, 2.5, 5, 10] where power * multiple >= rough {
            return power * multiple
        }
        return power * 10
    }

    private static func decimals(of step: Double) -> Int {
        var places = 0
        var scaled = step
        while places < 9, abs(scaled - scaled.rounded()) > 1e-9 * max(1, abs(scaled)) {
            scaled *= 10
            places += 1
        }
        return places
    }
}
