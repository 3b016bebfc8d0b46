import HAPEvents
import Packets
import TLV8

/// Finds brute-force bursts in the pair setups one accessory answered: `threshold` wrong setup
/// codes within `window` seconds with no Backoff or MaxTries among them.
///
/// Only the last `threshold` failures are kept, so a capture of a million guesses costs no
/// more memory than one of six.
struct FailedSetupBursts {
    /// One pair setup the accessory ended with an Error item.
    struct Attempt {
        /// The M1 that opened it.
        let started: PacketInfo
        /// The answer that ended it.
        let ended: PacketInfo
        let connection: ConnectionInfo
        let error: PairingErrorCode

        /// Backoff or MaxTries: the accessory throttled. Any other error is a wrong code.
        var isThrottled: Bool { error == .backoff || error == .maxTries }
    }

    /// Consecutive wrong codes, each the last of `threshold` within the window.
    struct Burst {
        let first: Attempt
        var last: Attempt
        var count: Int
    }

    private let threshold: Int
    private let window: Double
    /// The latest failures since the last throttling answer, oldest first, at most `threshold`.
    private var recent: [Attempt] = []
    private var open: Burst?

    init(threshold: Int, window: Double) {
        self.threshold = max(1, threshold)
        self.window = window
    }

    /// Adds the next attempt. Returns the attempts that have just become part of a burst, and
    /// the burst that this attempt ended, if any.
    mutating func add(_ attempt: Attempt) -> (joined: [Attempt], ended: Burst?) {
        guard !attempt.isThrottled else {
            recent.removeAll()
            return ([], close())
        }
        recent.append(attempt)
        if recent.count > threshold { recent.removeFirst() }
        guard recent.count == threshold, attempt.ended.timestamp - recent[0].ended.timestamp <= window else {
            return ([], close())
        }
        if var burst = open {
            burst.last = attempt
            burst.count += 1
            open = burst
            return ([attempt], nil)
        }
        open = Burst(first: recent[0], last: attempt, count: threshold)
        return (recent, nil)
    }

    /// Ends the input: the burst still going, if any.
    mutating func finish() -> Burst? { close() }

    private mutating func close() -> Burst? {
        defer { open = nil }
        return open
    }
}
