import Bluetooth
import HAPEvents
import Packets

/// The broadcast encryption key each accessory holds, as the capture's decrypted Protocol
/// Configuration exchanges show it, and how old it is when an encrypted notification opens.
///
/// HomeKitADK HAPBLEAccessoryServer+Broadcast.c keeps one key per accessory: each
/// Generate-Broadcast-Encryption-Key replaces it, and stores the expiration GSN
/// `gsn + 32767 − 1` (less 65535 above 65535) from the GSN at that moment; the GSN increment from
/// the expiration GSN discards the key (HAPBLEAccessoryServerIncrementGSN). So a notification
/// whose GSN is 32,767 or more increments after the generation was sealed under an expired key.
///
/// The generate request's answer carries no GSN unless the same request asked Get-All-Params, so
/// the GSN counted from is the first one the accessory states at or after the generation: a
/// Get-All answer on that connection, else its next regular advertisement. It can only be later
/// than the true one, so an expiry found is certain. Kept for at most `maximumAccessories`.
struct BroadcastKeyLifetimeWatch {
    /// HAP R14 §7.4.7.4 as HomeKitADK quotes it: the key expires after 32,767 (2^15 − 1) GSN increments.
    static let lifetime = 32767

    private struct Generation {
        let connection: ConnectionInfo
        let packet: PacketInfo
        var globalStateNumber: UInt16?
        var statedIn: PacketInfo?
    }

    private var generations: BoundedTable<BluetoothAddress, Generation>

    init(maximumAccessories: Int) {
        generations = BoundedTable(capacity: maximumAccessories)
    }

    /// The accessory at `address` answered a Generate-Broadcast-Encryption-Key with success on
    /// `connection`; `statedGSN` when the same request asked Get-All-Params.
    mutating func generated(by address: BluetoothAddress, on connection: ConnectionInfo, packet: PacketInfo, statedGSN: UInt16?) {
        generations.set(address, Generation(connection: connection, packet: packet, globalStateNumber: statedGSN,
                                            statedIn: statedGSN == nil ? nil : packet))
    }

    /// The accessory stated its GSN (a Get-All answer, a regular advertisement): the first
    /// statement after a generation is the GSN the key's age is counted from.
    mutating func stated(_ gsn: UInt16, by address: BluetoothAddress, packet: PacketInfo) {
        guard var generation = generations[address], generation.globalStateNumber == nil else { return }
        generation.globalStateNumber = gsn
        generation.statedIn = packet
        generations.set(address, generation)
    }

    /// The lifetime of the key an encrypted notification from `address` with `gsn` was opened under.
    func notification(_ gsn: UInt16, from address: BluetoothAddress) -> BLEBroadcastKeyLifetime {
        guard let generation = generations[address] else {
            return BLEBroadcastKeyLifetime(broadcastGlobalStateNumber: gsn, generation: nil, verdict: .generationNotInCapture)
        }
        let event = BLEBroadcastKeyLifetime.Generation(
            connection: generation.connection, packet: generation.packet, globalStateNumber: generation.globalStateNumber,
            statedIn: generation.statedIn)
        guard let generated = generation.globalStateNumber else {
            return BLEBroadcastKeyLifetime(broadcastGlobalStateNumber: gsn, generation: event, verdict: .generationGSNUnknown)
        }
        let increments = Self.increments(from: generated, to: gsn)
        return BLEBroadcastKeyLifetime(
            broadcastGlobalStateNumber: gsn, generation: event,
            verdict: .judged(increments: increments, expirationGSN: Self.expirationGSN(generatedAt: generated),
                             expired: increments >= Self.lifetime))
    }

    /// HomeKitADK HAPBLEAccessoryServerBroadcastGenerateKey: `gsn + 32767 − 1`, less 65535 when
    /// above 65535 (the GSN runs 1…65535 and wraps from 65535 to 1).
    static func expirationGSN(generatedAt gsn: UInt16) -> UInt16 {
        let expiration = Int(gsn) + lifetime - 1
        return UInt16(expiration > Int(UInt16.max) ? expiration - Int(UInt16.max) : expiration)
    }

    /// The GSN increments from `start` to `end` on the wrapping 1…65535 scale (0 for the same GSN).
    static func increments(from start: UInt16, to end: UInt16) -> Int {
        let period = Int(UInt16.max)
        return ((Int(end) - Int(start)) % period + period) % period
    }
}
