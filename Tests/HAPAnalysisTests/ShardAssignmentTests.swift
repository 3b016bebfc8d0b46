import IPTransport
import Packets
import Testing
@testable import HAPAnalysis

/// Accessory addresses dealt out to the shards of a sharded run: shard 0, on the reader's
/// thread, takes a smaller share.
@Suite("The shards' share of the accessory addresses")
struct ShardAssignmentTests {
    static func accessory(_ index: Int, port: UInt16 = 51_826) -> Endpoint {
        Endpoint(address: .v4(0x0A00_0000 + UInt32(index)), port: port)
    }

    static func shards(of count: Int, among jobs: Int) -> [Int] {
        var assignment = ShardAssignment(shardCount: jobs)
        return (0..<count).map { assignment.shard(of: accessory($0)) }
    }

    @Test("two jobs: the reader's shard takes two addresses in seven, the other shard five, in the order they are first seen")
    func twoJobs() {
        #expect(Self.shards(of: 14, among: 2) == [1, 1, 0, 1, 1, 0, 1, 1, 1, 0, 1, 1, 0, 1])
    }

    @Test("three jobs: the reader's shard one address in twenty-one; from four jobs none; the others share the rest evenly")
    func moreJobs() {
        let three = Self.shards(of: 21, among: 3)
        #expect([0, 1, 2].map { shard in three.filter { $0 == shard }.count } == [1, 10, 10])
        let four = Self.shards(of: 12, among: 4)
        #expect([0, 1, 2, 3].map { shard in four.filter { $0 == shard }.count } == [0, 4, 4, 4])
    }

    @Test("every connection to one address is on one shard, whatever its port")
    func sameAddress() {
        var assignment = ShardAssignment(shardCount: 3)
        let first = assignment.shard(of: Self.accessory(7))
        _ = assignment.shard(of: Self.accessory(8))
        #expect(assignment.shard(of: Self.accessory(7, port: 80)) == first)
    }

    @Test("beyond the addresses remembered, an address is placed by its hash, and the same each time")
    func beyondTheBound() {
        var assignment = ShardAssignment(shardCount: 2)
        for index in 0..<ShardAssignment.maximumAddresses { _ = assignment.shard(of: Self.accessory(index)) }
        let late = Self.accessory(ShardAssignment.maximumAddresses + 5)
        #expect(assignment.shard(of: late) == ConnectionShard.shard(of: late, among: 2))
        #expect(assignment.shard(of: late) == ConnectionShard.shard(of: late, among: 2))
    }
}
