import HAPCore
import HAPEvents
@testable import Reports
import Testing
import TestSupport

@Suite struct HTMLAxisScaleTests {
    @Test func theBridgeTemperaturesGetHalfDegreeTicks() throws {
        let scale = try #require(HTMLAxisScale(minimum: 21.5, maximum: 23.0, tickCount: 4))
        #expect(scale.ticks == [21.5, 22.0, 22.5, 23.0])
        #expect(scale.decimals == 1)
    }

    @Test func theRangeWidensToRoundNumbers() throws {
        let scale = try #require(HTMLAxisScale(minimum: 3, maximum: 97, tickCount: 5))
        #expect(scale.lower == 0)
        #expect(scale.upper == 100)
        #expect(scale.step == 25)
        #expect(scale.decimals == 0)
    }

    @Test func integralScalesNeverStepBetweenWholeNumbers() throws {
        let lock = try #require(HTMLAxisScale(minimum: 0, maximum: 1, tickCount: 4, integral: true))
        #expect(lock.ticks == [0, 1])
        let brightness = try #require(HTMLAxisScale(minimum: 0, maximum: 5, tickCount: 5, integral: true))
        #expect(brightness.ticks.allSatisfy { $0 == $0.rounded() })
    }

    @Test func oneValueIsCentredInABandAroundIt() throws {
        let scale = try #require(HTMLAxisScale(minimum: 20, maximum: 20))
        #expect(scale.lower < 20 && scale.upper > 20)
        let zero = try #require(HTMLAxisScale(minimum: 0, maximum: 0))
        #expect(zero.lower <= -1 && zero.upper >= 1)
    }

    @Test func positionsMapTheRangeOntoTheAxisEnds() throws {
        let scale = try #require(HTMLAxisScale(minimum: 0, maximum: 10, tickCount: 3))
        #expect(scale.position(of: scale.lower, from: 100, to: 0) == 100)
        #expect(scale.position(of: scale.upper, from: 100, to: 0) == 0)
    }

    @Test func valuesThatCannotShareAScaleGetNone() {
        #expect(HTMLAxisScale(minimum: -.greatestFiniteMagnitude, maximum: .greatestFiniteMagnitude) == nil)
        #expect(HTMLAxisScale(minimum: .nan, maximum: 1) == nil)
        #expect(HTMLAxisScale(minimum: 2, maximum: 1) == nil)
    }

    @Test func tinyAndHugeRangesKeepTheTickCountBounded() throws {
        let tiny = try #require(HTMLAxisScale(minimum: 1e15, maximum: 1e15 + 0.125))
        #expect(tiny.ticks.count <= 32)
        let huge = try #require(HTMLAxisScale(minimum: -1e300, maximum: 1e300))
        #expect((2 ... 32).contains(huge.ticks.count))
    }
}
