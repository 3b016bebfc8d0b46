import IPTransport
import Packets

/// Which shard analyses the connections to each accessory address in a sharded run: every
/// connection to one address on one shard (its database and pairings stay there), the addresses
/// dealt out in the order they are first seen, so that a run's shards, and so its fallbacks,
/// repeat.
///
/// Shard 0 is made on the reader's thread, which also reads, reassembles and merges — about 30 %
/// of the work of two jobs on the generated capture (`perf record` of `hapbench analyze --jobs
/// 2`, 100 MB, two runs: with shard 0 taking a third of the addresses the reader's thread had
/// 55 % of the samples, with a quarter 46 %) — so it takes a smaller share of the addresses: with
/// N jobs, as many threads, each thread should carry 1/N of the work, which leaves shard 0
/// max(0, (1/N − 3/10) / (7/10)) of the connections' work and each other shard 10/(7N): weights
/// of 10 − 3N against 10 (two in seven in two jobs, one in twenty-one in three, none from four).
/// Each new address goes to the shard furthest below its share.
struct ShardAssignment {
    let shardCount: Int
    /// Each shard's share of the addresses, in parts of their sum.
    let weights: [Int]
    private var counts: [Int]
    private var assigned: [IPAddress: Int] = [:]

    /// Addresses remembered at most; later ones are placed by a hash of the address (as stable,
    /// without the shares), so that a capture of a million addresses holds no million entries.
    static let maximumAddresses = 65_536

    init(shardCount: Int) {
        self.shardCount = shardCount
        weights = shardCount > 1 ? [max(0, 10 - 3 * shardCount)] + Array(repeating: 10, count: shardCount - 1) : [1]
        counts = Array(repeating: 0, count: shardCount)
    }

    mutating func shard(of accessory: Endpoint) -> Int {
        if let shard = assigned[accessory.address] { return shard }
        guard assigned.count < Self.maximumAddresses else {
            return ConnectionShard.shard(of: accessory, among: shardCount)
        }
        // The shard whose count, one more address added, is furthest below its share: the
        // least (count + 1) / weight, compared as products; the lowest index on a tie.
        var best = 0
        for shard in 0..<shardCount where weights[shard] > 0 {
            if weights[best] == 0 || (counts[shard] + 1) * weights[best] < (counts[best] + 1) * weights[shard] {
                best = shard
            }
        }
        counts[best] += 1
        assigned[accessory.address] = best
        return best
    }
}
