import HAPJSON
import HTTP1
import Packets
import Testing
import TestSupport
import WireParsing
@testable import IPTransport

@Suite("Matching responses to requests")
struct RequestLedgerTests {
    private func request(_ target: String, packet number: Int, at time: Timestamp? = nil, writes: String? = nil) throws -> PendingRequest {
        let request = PendingRequest(
            method: writes == nil ? "GET" : "PUT", target: target, endpoint: HAPRequestTarget(target).endpoint,
            packet: .numbered(number, at: time))
        if let writes {
            let body = Array(writes.utf8)
            var cursor = ByteCursor(body.span.bytes, layer: .json)
            request.writes = try CharacteristicWriteRequest(parsing: &cursor)
        }
        return request
    }

    private func prepare(ttl: Int, pid: Int) throws -> PrepareRequest {
        let body = Array(#"{"ttl":\#(ttl),"pid":\#(pid)}"#.utf8)
        var cursor = ByteCursor(body.span.bytes, layer: .json)
        return try PrepareRequest(parsing: &cursor)
    }

    private func time(_ seconds: Int64, _ milliseconds: UInt32 = 0) -> Timestamp {
        Timestamp(seconds: 1_700_000_000 + seconds, nanoseconds: milliseconds * 1_000_000)
    }

    @Test("responses answer the requests in the order they were sent")
    func firstInFirstOut() throws {
        var ledger = RequestLedger(maximumPending: 8)
        for (number, target) in ["/accessories", "/characteristics?id=1.2", "/pairings"].enumerated() {
            #expect(ledger.add(try request(target, packet: number + 1)))
        }
        #expect(ledger.count == 3)
        #expect(ledger.answer()?.target == "/accessories")
        #expect(ledger.answer()?.target == "/characteristics?id=1.2")
        #expect(ledger.add(try request("/prepare", packet: 4)))
        #expect(ledger.answer()?.target == "/pairings")
        #expect(ledger.answer()?.target == "/prepare")
        #expect(ledger.answer() == nil, "a response with nothing to answer answers nothing")
        #expect(ledger.count == 0)
    }

    @Test("beyond the pending bound the oldest request is forgotten, and the add says so")
    func pendingBound() throws {
        var ledger = RequestLedger(maximumPending: 2)
        #expect(ledger.add(try request("/a", packet: 1)))
        #expect(ledger.add(try request("/b", packet: 2)))
        #expect(!ledger.add(try request("/c", packet: 3)))
        #expect(ledger.count == 2)
        #expect(ledger.answer()?.target == "/b")
        #expect(ledger.answer()?.target == "/c")
    }

    @Test("a queue drained and refilled many times keeps its order")
    func longQueue() throws {
        var queue = RequestQueue()
        var next = 0
        var expected = 0
        var random = SeededRandom(seed: 3)
        for _ in 0 ..< 500 {
            for _ in 0 ..< Int.random(in: 0 ... 4, using: &random) {
                next += 1
                queue.append(try request("/\(next)", packet: next))
            }
            for _ in 0 ..< Int.random(in: 0 ... 4, using: &random) {
                guard let popped = queue.popFirst() else {
                    #expect(expected == next)
                    break
                }
                expected += 1
                #expect(popped.target == "/\(expected)")
            }
            #expect(queue.count == next - expected)
        }
    }

    @Test("a write carrying the pid of a /prepare, within its ttl, is a timed write")
    func timedWrite() throws {
        var ledger = RequestLedger(maximumPending: 8)
        ledger.prepare(try prepare(ttl: 1_000, pid: 7), at: .numbered(1, at: time(0)))
        let write = #"{"characteristics":[{"aid":1,"iid":9,"value":1}],"pid":7}"#
        #expect(ledger.add(try request("/characteristics", packet: 2, at: time(0, 500), writes: write)))
        #expect(ledger.answer()?.timedWrite == true)
    }

    @Test("a write with another pid, without one, or long after the ttl is not timed")
    func notTimed() throws {
        var ledger = RequestLedger(maximumPending: 8)
        ledger.prepare(try prepare(ttl: 1_000, pid: 7), at: .numbered(1, at: time(0)))
        let writes = [
            (#"{"characteristics":[{"aid":1,"iid":9,"value":1}],"pid":8}"#, time(0, 500)),
            (#"{"characteristics":[{"aid":1,"iid":9,"value":1}]}"#, time(0, 500)),
            (#"{"characteristics":[{"aid":1,"iid":9,"value":1}],"pid":7}"#, time(5)),
        ]
        for (number, (body, at)) in writes.enumerated() {
            _ = ledger.add(try request("/characteristics", packet: number + 2, at: at, writes: body))
            #expect(ledger.answer()?.timedWrite == false, "\(body)")
        }
    }

    @Test("the window is the ttl to the millisecond: a write at the ttl is timed, one after it is not",
          arguments: [(UInt32(1_000), true), (1_001, false), (1_500, false), (1_999, false)])
    func windowIsExact(after milliseconds: UInt32, timed: Bool) throws {
        var ledger = RequestLedger(maximumPending: 8)
        ledger.prepare(try prepare(ttl: 1_000, pid: 7), at: .numbered(1, at: time(0, 250)))
        let at = Timestamp(seconds: 1_700_000_000 + Int64((250 + milliseconds) / 1000), nanoseconds: (250 + milliseconds) % 1000 * 1_000_000)
        _ = ledger.add(try request("/characteristics", packet: 2, at: at, writes: #"{"characteristics":[{"aid":1,"iid":9,"value":1}],"pid":7}"#))
        #expect(ledger.answer()?.timedWrite == timed)
    }

    @Test("a request that is no write is never timed, even with a prepare open")
    func readsAreNotTimed() throws {
        var ledger = RequestLedger(maximumPending: 8)
        ledger.prepare(try prepare(ttl: 10_000, pid: 7), at: .numbered(1, at: time(0)))
        _ = ledger.add(try request("/characteristics?id=1.9", packet: 2, at: time(1)))
        #expect(ledger.answer()?.timedWrite == false)
    }

    @Test("a ttl near the largest integer does not overflow the window")
    func hugeTTL() throws {
        var ledger = RequestLedger(maximumPending: 8)
        let body = Array(#"{"ttl":18446744073709551615,"pid":1}"#.utf8)
        var cursor = ByteCursor(body.span.bytes, layer: .json)
        ledger.prepare(try PrepareRequest(parsing: &cursor), at: .numbered(1, at: time(0)))
        _ = ledger.add(try request("/characteristics", packet: 2, at: time(100), writes: #"{"characteristics":[{"aid":1,"iid":9,"value":1}],"pid":1}"#))
        #expect(ledger.answer()?.timedWrite == true)
    }
}
