import HAPCrypto

/// One direction of a secured HAP-BLE session: every GATT value (one PDU fragment) is sealed on
/// its own with ChaCha20-Poly1305, no additional data, a 16-byte tag and the nonce 4 zero bytes ‖
/// a 64-bit little-endian counter that starts at 0 after pair-verify and counts the values of
/// this direction (HomeKitADK HAPSession.c, `HAPSessionEncryptControlMessage` /
/// `HAPSessionDecryptControlMessage`: one nonce per channel, incremented per message;
/// HAPBLEProcedure.c: each fragment sealed when the procedure started secured; aiohomekit
/// controller/ble/pairing.py, `_encryption_key` / `_decryption_key`).
struct BLESessionCipher {
    let key: ChaCha20Poly1305.Key
    /// The counter the next value must be sealed with.
    private(set) var nextCounter: UInt64 = 0
    /// Counters tried past the due one before a value is declared undecryptable, so that a
    /// sender that skipped a few counters is told apart from one that sealed with another key.
    let skipWindow: UInt64

    init(key: ChaCha20Poly1305.Key, skipWindow: UInt64 = 8) {
        self.key = key
        self.skipWindow = skipWindow
    }

    enum Outcome: Equatable {
        /// Opened with the due counter.
        case opened([UInt8], counter: UInt64)
        /// Opened with a counter after the due one: `skipped` counters were never used.
        case openedAfterSkip([UInt8], counter: UInt64, skipped: UInt64)
        /// Opened with the counter of the value before (a nonce used twice).
        case openedWithReusedCounter([UInt8], counter: UInt64)
        /// No counter in the window opens it.
        case failed(dueCounter: UInt64)
    }

    /// Opens one sealed GATT value, moving the counter past the one that opened it.
    mutating func open(_ sealed: [UInt8]) -> Outcome {
        guard sealed.count >= ChaCha20Poly1305.tagByteCount else { return .failed(dueCounter: nextCounter) }
        for step in 0 ... skipWindow {
            let (counter, overflow) = nextCounter.addingReportingOverflow(step)
            if overflow { break }
            guard let plaintext = try? ChaCha20Poly1305.open(
                sealed.span.bytes, key: key, nonce: ChaCha20Poly1305.Nonce(counter: counter)) else { continue }
            nextCounter = counter &+ 1
            return step == 0 ? .opened(plaintext, counter: counter) : .openedAfterSkip(plaintext, counter: counter, skipped: step)
        }
        if nextCounter > 0, let plaintext = try? ChaCha20Poly1305.open(
            sealed.span.bytes, key: key, nonce: ChaCha20Poly1305.Nonce(counter: nextCounter - 1)) {
            return .openedWithReusedCounter(plaintext, counter: nextCounter - 1)
        }
        return .failed(dueCounter: nextCounter)
    }
}
