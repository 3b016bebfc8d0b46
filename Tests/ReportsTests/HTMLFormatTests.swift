import HAPCatalog
import HAPCore
import HAPEvents
import HAPJSON
import Packets
@testable import Reports
import Testing
import TestSupport

@Suite struct HTMLFormatTests {
    @Test func captureTimesAreWrittenInUTCToTheMicrosecond() {
        #expect(HTMLFormat.utc(Timestamp(seconds: 0, nanoseconds: 0)) == "1970-01-01 00:00:00.000000 UTC")
        #expect(HTMLFormat.utc(Timestamp(seconds: 1_796_011_383, nanoseconds: 525_802_999)) == "2026-11-30 04:03:03.525802 UTC")
        #expect(HTMLFormat.utc(Timestamp(seconds: 1_709_164_800, nanoseconds: 0)) == "2024-02-29 00:00:00.000000 UTC")
        #expect(HTMLFormat.utc(Timestamp(seconds: 951_868_800, nanoseconds: 0)) == "2000-03-01 00:00:00.000000 UTC")
        #expect(HTMLFormat.utc(Timestamp(seconds: -1, nanoseconds: 0)) == "1969-12-31 23:59:59.000000 UTC")
    }

    @Test func theExtremesOfAPcapTimestampDoNotTrap() {
        #expect(!HTMLFormat.utc(Timestamp(seconds: .max, nanoseconds: 999_999_999)).isEmpty)
        #expect(!HTMLFormat.utc(Timestamp(seconds: .min, nanoseconds: 0)).isEmpty)
    }

    @Test func durationsUseTheUnitThatReadsBest() {
        #expect(HTMLFormat.duration(0.000_850) == "850 µs")
        #expect(HTMLFormat.duration(0.012_34) == "12.3 ms")
        #expect(HTMLFormat.duration(0.2) == "200 ms")
        #expect(HTMLFormat.duration(2.414) == "2.41 s")
        #expect(HTMLFormat.duration(185) == "3 min 5 s")
        #expect(HTMLFormat.duration(-0.5) == "−500 ms")
        #expect(HTMLFormat.duration(.infinity) == "—")
    }

    @Test func offsetsCountFromTheFirstPacketInMilliseconds() {
        #expect(HTMLFormat.offset(1.4554) == "+1.455 s")
        #expect(HTMLFormat.offset(0) == "+0.000 s")
    }

    @Test func decimalsAreRoundedWithoutLocaleOrExponent() {
        #expect(HTMLFormat.decimal(21.55, decimals: 1) == "21.6")
        #expect(HTMLFormat.decimal(-0.04, decimals: 1) == "0.0")
        #expect(HTMLFormat.decimal(-3.25, decimals: 2) == "-3.25")
        #expect(HTMLFormat.decimal(0.000_5, decimals: 3) == "0.001")
        #expect(HTMLFormat.decimal(42, decimals: 0) == "42")
        #expect(HTMLFormat.fixed(-3.25, decimals: 1) == "−3.3")
        #expect(HTMLFormat.decimal(1e300, decimals: 2) == "1e+300")
    }

    @Test func countsHaveThousandsSeparatorsAndAgreeWithTheirNoun() {
        #expect(HTMLFormat.count(17_546) == "17,546")
        #expect(HTMLFormat.count(999) == "999")
        #expect(HTMLFormat.count(1_000_000) == "1,000,000")
        #expect(HTMLFormat.count(1, "read") == "1 read")
        #expect(HTMLFormat.count(2, "accessory", "accessories") == "2 accessories")
    }

    @Test func valuesCarryTheirUnitAndTheCataloguesNameForAnEnumeration() {
        let lockState = HAPUUID(appleDefined: 0x1D)
        #expect(HTMLFormat.value(.unsignedInteger(1), type: lockState, unit: nil) == "1 (SECURED)")
        #expect(HTMLFormat.value(.float(22.5), type: HAPUUID(appleDefined: 0x11), unit: .celsius) == "22.5 °C")
        #expect(HTMLFormat.value(.string("<b>"), type: nil, unit: .celsius) == #""<b>""#)
        #expect(HTMLFormat.value(.unsignedInteger(9), type: lockState, unit: nil) == "9")
    }
}
