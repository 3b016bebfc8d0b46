import HAPCore
import HAPEvents
import Packets
import Reports
import Testing
import TestSupport

@Suite("Capture clock")
struct CaptureClockTests {
    @Test("absolute times are UTC ISO 8601 with microseconds, or nanoseconds when the capture has them", arguments: [
        (Timestamp(seconds: 0, nanoseconds: 0), "1970-01-01T00:00:00.000000Z"),
        (Timestamp(seconds: 1_796_011_383, nanoseconds: 525_802_000), "2026-11-30T04:03:03.525802Z"),
        (Timestamp(seconds: 1_796_011_383, nanoseconds: 861_820_184), "2026-11-30T04:03:03.861820184Z"),
        (Timestamp(seconds: 1_709_208_000, nanoseconds: 0), "2024-02-29T12:00:00.000000Z"),
        (Timestamp(seconds: 253_402_300_799, nanoseconds: 999_999_000), "9999-12-31T23:59:59.999999Z"),
        (Timestamp(seconds: -1, nanoseconds: 0), "1969-12-31T23:59:59.000000Z"),
        (Timestamp(seconds: -62_135_596_800, nanoseconds: 0), "0001-01-01T00:00:00.000000Z"),
    ])
    func absoluteTime(time: Timestamp, expected: String) {
        #expect(CaptureClock.iso8601(time) == expected)
    }

    @Test("relative times count from the origin exactly, to the nanosecond")
    func relativeTimes() {
        let clock = CaptureClock(origin: Timestamp(seconds: 100, nanoseconds: 999_999_000))
        #expect(clock.relativeSeconds(Timestamp(seconds: 101, nanoseconds: 1_000)) == 0.000002)
        #expect(clock.relativeSeconds(Timestamp(seconds: 112, nanoseconds: 345_677_000))?.description == "11.345678")
        #expect(clock.relativeText(Timestamp(seconds: 101, nanoseconds: 1_000)) == "0.000002")
        #expect(clock.relativeText(Timestamp(seconds: 100, nanoseconds: 999_997_000)) == "-0.000002")
    }

    @Test("without an origin a time is shown absolutely")
    func noOrigin() {
        let time = Timestamp(seconds: 0, nanoseconds: 0)
        #expect(CaptureClock().relativeSeconds(time) == nil)
        #expect(CaptureClock().relativeText(time) == "1970-01-01T00:00:00.000000Z")
    }

    @Test("a time too far from the origin for 64-bit nanoseconds has no relative value")
    func overflow() {
        let clock = CaptureClock(origin: Timestamp(seconds: .min, nanoseconds: 0))
        #expect(clock.relativeSeconds(Timestamp(seconds: .max, nanoseconds: 0)) == nil)
    }

    @Test("durations read as a person says them", arguments: [
        (0.000_4, "400 µs"), (0.012_34, "12.3 ms"), (1.2, "1.200 s"), (192, "3 min 12 s"), (7_300, "2 h 1 min"), (-0.5, "-500.0 ms"),
    ])
    func durations(seconds: Double, expected: String) {
        #expect(CaptureClock.durationText(seconds) == expected)
    }

    @Test("durations in JSON lose the noise of floating-point subtraction")
    func roundedSeconds() {
        #expect(CaptureClock.roundedSeconds(0.1 + 0.2) == 0.3)
        #expect(CaptureClock.roundedSeconds(0.012000000000000001).description == "0.012")
    }
}
