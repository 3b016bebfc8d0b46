import HAPCrypto
import TLV8
import WireParsing

/// The cryptographic hot paths, each against libsodium called through HAPCrypto's thinnest
/// wrappers in a tight loop in the same process.
enum CryptoBenchmarks {
    static func run(settings: RunSettings, filter: BenchmarkFilter) throws -> [Ratio] {
        var ratios: [Ratio] = []
        for (length, target) in [(1_024, 0.90), (64, 0.90)] {
            let frames = try FrameStream(plaintextLength: length)
            let direct = frames.directOpenBenchmark()
            for measured in [frames.decryptorBenchmark(pieceLength: nil), frames.decryptorBenchmark(pieceLength: 1_460)]
            where filter.includes(measured.name) {
                ratios.append(BenchmarkRunner.compare(
                    measured, against: direct, settings: settings, target: measured.name.hasSuffix("segmented") ? nil : target,
                    name: measured.name + "/libsodium",
                    meaning: "HAPFrameDecryptor frames/s vs ChaCha20Poly1305.open on the same frames in a tight loop"))
            }
        }
        let material = try PairVerifyMaterial()
        let comparisons: [(Benchmark, Benchmark, String)] = [
            (hkdfBenchmark(material), rawHKDFBenchmark(material, keys: 1),
             "HKDFSHA512.deriveKey vs extract and expand as two HMACSHA512 passes"),
            (sessionKeysBenchmark(material), rawHKDFBenchmark(material, keys: 3),
             "PairVerifyKeys (pair-verify key and both session keys) vs three raw HMAC-based derivations"),
            (material.checkBenchmark(), material.primitivesBenchmark(),
             "a whole pair-verify check as the analyzer makes it vs its libsodium primitives alone"),
            (try SRPMaterial().matchBenchmark(), try SRPMaterial().hashBenchmark(),
             "SRPTranscript checking both proofs from K vs the two SHA-512 passes they need"),
        ]
        for (measured, baseline, meaning) in comparisons where filter.includes(measured.name) {
            ratios.append(BenchmarkRunner.compare(
                measured, against: baseline, settings: settings, target: nil, name: measured.name + "/libsodium", meaning: meaning))
        }
        return ratios
    }

    static func hkdfBenchmark(_ material: PairVerifyMaterial) -> Benchmark {
        let salt = Array("Control-Salt".utf8)
        let info = Array("Control-Read-Encryption-Key".utf8)
        let secret = material.sharedSecret
        return Benchmark(name: "crypto.hkdf-sha512", unit: .operation, bytesPerOperation: nil, iterations: 100_000) { count in
            var total = 0
            for _ in 0..<count {
                if let key = try? HKDFSHA512.deriveKey(inputKeyMaterial: secret, salt: salt.span.bytes, info: info.span.bytes) {
                    total &+= key.withUnsafeBytes { Int($0[0]) }
                }
            }
            return total
        }
    }

    static func sessionKeysBenchmark(_ material: PairVerifyMaterial) -> Benchmark {
        let secret = material.sharedSecret
        return Benchmark(name: "crypto.session-keys", unit: .operation, bytesPerOperation: nil, iterations: 40_000) { count in
            var total = 0
            for _ in 0..<count {
                if let keys = try? PairVerifyKeys(sharedSecret: secret) {
                    total &+= keys.session.controllerToAccessory.secret.withUnsafeBytes { Int($0[0]) }
                }
            }
            return total
        }
    }

    /// RFC 5869 by hand: PRK = HMAC(salt, IKM), OKM = HMAC(PRK, info ‖ 0x01), `keys` times.
    static func rawHKDFBenchmark(_ material: PairVerifyMaterial, keys: Int) -> Benchmark {
        let salt = Array("Control-Salt".utf8)
        let info = Array("Control-Read-Encryption-Key".utf8) + [1]
        let secret = material.sharedSecret.revealedBytes()
        return Benchmark(name: "libsodium.hmac-sha512.x\(2 * keys)", unit: .operation, bytesPerOperation: nil,
                         iterations: 100_000 / keys) { count in
            var total = 0
            for _ in 0..<(count * keys) {
                var extract = HMACSHA512(key: salt.span.bytes)
                extract.update(secret.span.bytes)
                let pseudorandomKey = extract.finalize()
                var expand = HMACSHA512(key: pseudorandomKey.span.bytes)
                expand.update(info.span.bytes)
                total &+= Int(expand.finalize()[0])
            }
            return total
        }
    }
}

/// A stream of sealed HAP frames of one plaintext length, decrypted as the analyzer does and
/// opened one by one with the AEAD directly.
struct FrameStream {
    let key: ChaCha20Poly1305.Key
    let plaintextLength: Int
    let frameCount: Int
    /// length ‖ ciphertext ‖ tag, frame after frame, counters 0, 1, 2, …
    let stream: [UInt8]

    init(plaintextLength: Int) throws(CryptoError) {
        var random = SeededRandom(seed: UInt64(plaintextLength))
        key = try ChaCha20Poly1305.Key(random.secret(ChaCha20Poly1305.keyByteCount))
        self.plaintextLength = plaintextLength
        // About 256 KiB of frames: cache-resident, as frames are when they arrive.
        frameCount = max(64, 262_144 / (plaintextLength + HAPFrame.overheadByteCount))
        var encryptor = HAPFrameEncryptor(key: key)
        let plaintext = random.bytes(plaintextLength * frameCount)
        stream = try encryptor.seal(plaintext.span.bytes, maximumFrameLength: plaintextLength)
    }

    private var frameByteCount: Int { plaintextLength + HAPFrame.overheadByteCount }
    private var iterations: Int { plaintextLength >= 1_024 ? 300_000 : 1_500_000 }

    /// Frames through `HAPFrameDecryptor`: the whole stream at once, or in TCP-segment-sized
    /// pieces so that frames straddle pieces as they do on the wire.
    func decryptorBenchmark(pieceLength: Int?) -> Benchmark {
        let name = "crypto.frame-decrypt.\(plaintextLength)" + (pieceLength == nil ? "" : ".segmented")
        return Benchmark(name: name, unit: .frame, bytesPerOperation: plaintextLength, iterations: iterations) { [stream, key, frameCount] count in
            var total = 0
            var remaining = count
            stream.withUnsafeBytes { bytes in
                while remaining > 0 {
                    // A fresh direction per pass over the stream: counters restart at 0.
                    var decryptor = HAPFrameDecryptor(key: key)
                    let frames = min(remaining, frameCount)
                    let end = frames * (bytes.count / frameCount)
                    var offset = 0
                    while offset < end {
                        let pieceEnd = min(end, offset + (pieceLength ?? end))
                        do throws(HAPFrameDecryptionError) {
                            try decryptor.decrypt(UnsafeRawBufferPointer(rebasing: bytes[offset..<pieceEnd])) { frame in
                                total &+= Int(frame.plaintext[0])
                            }
                        } catch {
                            total &+= Int(error.counter)
                        }
                        offset = pieceEnd
                    }
                    remaining -= frames
                }
            }
            return total
        }
    }

    /// `ChaCha20Poly1305.open(_:key:nonce:authenticating:into:)` on each frame in turn.
    func directOpenBenchmark() -> Benchmark {
        Benchmark(name: "libsodium.aead-open.\(plaintextLength)", unit: .frame, bytesPerOperation: plaintextLength,
                  iterations: iterations) { count in openFrames(count) }
    }

    /// Opens `count` frames of the stream, cycling through it, with the AEAD alone.
    func openFrames(_ count: Int) -> Int {
        var total = 0
        var output = [UInt8](repeating: 0, count: plaintextLength)
        stream.withUnsafeBytes { bytes in
            output.withUnsafeMutableBytes { output in
                for index in 0..<count {
                    let frameIndex = index % frameCount
                    let start = frameIndex * frameByteCount
                    let lengthField = UnsafeRawBufferPointer(rebasing: bytes[start..<(start + HAPFrame.lengthFieldByteCount)])
                    let sealed = UnsafeRawBufferPointer(rebasing: bytes[(start + HAPFrame.lengthFieldByteCount)..<(start + frameByteCount)])
                    do {
                        total &+= try ChaCha20Poly1305.open(
                            sealed, key: key, nonce: .init(counter: UInt64(frameIndex)), authenticating: lengthField, into: output)
                    } catch {
                        total &+= 1
                    }
                    total &+= Int(output[0])
                }
            }
        }
        return total
    }
}

/// One pair-verify exchange's public values and the secrets a key log gives for it.
struct PairVerifyMaterial {
    let controllerSecret: X25519.PrivateKey
    let accessoryPublicKey: [UInt8]
    let controllerPublicKey: [UInt8]
    let sharedSecret: SecretBytes
    let accessoryID: String
    let controllerID: String
    let accessoryLTPK: Ed25519.PublicKey
    let controllerLTPK: Ed25519.PublicKey
    let m2EncryptedData: [UInt8]
    let m3EncryptedData: [UInt8]

    init() throws(CryptoError) {
        var random = SeededRandom(seed: 0x5056)
        let controllerSecret = try X25519.PrivateKey(random.secret(X25519.byteCount))
        let accessorySecret = try X25519.PrivateKey(random.secret(X25519.byteCount))
        let controllerPublicKey = controllerSecret.publicKey
        let accessoryPublicKey = accessorySecret.publicKey
        let sharedSecret = try controllerSecret.sharedSecret(with: accessoryPublicKey.span.bytes)
        let accessoryKey = try Ed25519.SigningKey(seed: random.secret(Ed25519.seedByteCount))
        let controllerKey = try Ed25519.SigningKey(seed: random.secret(Ed25519.seedByteCount))
        let accessoryID = "1A:2B:3C:4D:5E:6F"
        let controllerID = "8C1D6A2E-1F4B-4E0B-9A57-3D2C1B0A9F8E"
        let keys = try PairVerifyKeys(sharedSecret: sharedSecret)
        let m2Signed = try PairingSignedInfo.pairVerifyM2(
            accessoryCurvePublicKey: accessoryPublicKey.span.bytes, accessoryPairingID: Array(accessoryID.utf8).span.bytes,
            controllerCurvePublicKey: controllerPublicKey.span.bytes)
        let m3Signed = try PairingSignedInfo.pairVerifyM3(
            controllerCurvePublicKey: controllerPublicKey.span.bytes, controllerPairingID: Array(controllerID.utf8).span.bytes,
            accessoryCurvePublicKey: accessoryPublicKey.span.bytes)
        let m2Inner = PairingSubTLV(identifier: PairingIdentifier(accessoryID), signature: m2Signed.signature(signedBy: accessoryKey)).encoded()
        let m3Inner = PairingSubTLV(identifier: PairingIdentifier(controllerID), signature: m3Signed.signature(signedBy: controllerKey)).encoded()
        self.controllerSecret = controllerSecret
        self.controllerPublicKey = controllerPublicKey
        self.accessoryPublicKey = accessoryPublicKey
        self.sharedSecret = sharedSecret
        self.accessoryID = accessoryID
        self.controllerID = controllerID
        accessoryLTPK = accessoryKey.publicKey
        controllerLTPK = controllerKey.publicKey
        m2EncryptedData = PairingEncryptedData.seal(m2Inner.span.bytes, for: .pairVerifyM2, key: keys.encryptionKey)
        m3EncryptedData = PairingEncryptedData.seal(m3Inner.span.bytes, for: .pairVerifyM3, key: keys.encryptionKey)
    }

    /// What the analyzer does for a pair-verify whose controller ephemeral secret is logged:
    /// X25519, the HKDF derivations, opening M2 and M3, decoding their sub-TLVs and verifying
    /// both signatures.
    func checkBenchmark() -> Benchmark {
        Benchmark(name: "crypto.pair-verify-check", unit: .operation, bytesPerOperation: nil, iterations: 8_000) { count in
            var verified = 0
            for _ in 0..<count where (try? check()) == true { verified += 1 }
            return verified
        }
    }

    private func check() throws -> Bool {
        let shared = try controllerSecret.sharedSecret(with: accessoryPublicKey.span.bytes)
        let keys = try PairVerifyKeys(sharedSecret: shared)
        for (step, sealed, context) in [(PairingMessage.pairVerifyM2, m2EncryptedData, PairingSubTLV.Context.pairVerifyM2),
                                         (.pairVerifyM3, m3EncryptedData, .pairVerifyM3)] {
            let plaintext = try PairingEncryptedData.open(sealed.span.bytes, of: step, key: keys.encryptionKey)
            var cursor = ByteCursor(plaintext.span.bytes, layer: .tlv8)
            guard let inner = PairingSubTLV.decode(TLV8Body(parsingLeniently: &cursor), for: context).content,
                  let id = inner.identifier?.bytes, let signature = inner.signature else { return false }
            let signed = step == .pairVerifyM2
                ? try PairingSignedInfo.pairVerifyM2(accessoryCurvePublicKey: accessoryPublicKey.span.bytes, accessoryPairingID: id.span.bytes,
                                                     controllerCurvePublicKey: controllerPublicKey.span.bytes)
                : try PairingSignedInfo.pairVerifyM3(controllerCurvePublicKey: controllerPublicKey.span.bytes, controllerPairingID: id.span.bytes,
                                                     accessoryCurvePublicKey: accessoryPublicKey.span.bytes)
            try signed.verify(signature: signature.span.bytes, signer: step == .pairVerifyM2 ? accessoryLTPK : controllerLTPK)
        }
        return true
    }

    /// The same primitives with nothing around them: one X25519, three HKDF derivations (six
    /// HMAC passes), two AEAD opens and two Ed25519 verifications over prepared inputs.
    func primitivesBenchmark() -> Benchmark {
        let keys = try? PairVerifyKeys(sharedSecret: sharedSecret)
        let m2Plaintext = keys.flatMap { try? PairingEncryptedData.open(m2EncryptedData.span.bytes, of: .pairVerifyM2, key: $0.encryptionKey) } ?? []
        var cursor = ByteCursor(m2Plaintext.span.bytes, layer: .tlv8)
        let signature = PairingSubTLV.decode(TLV8Body(parsingLeniently: &cursor), for: .pairVerifyM2).content?.signature ?? []
        let signedM2 = accessoryPublicKey + Array(accessoryID.utf8) + controllerPublicKey
        let salt = Array("Control-Salt".utf8)
        let info = Array("Control-Read-Encryption-Key".utf8) + [1]
        let secret = sharedSecret.revealedBytes()
        return Benchmark(name: "libsodium.pair-verify-primitives", unit: .operation, bytesPerOperation: nil, iterations: 8_000) { count in
            var total = 0
            var output = [UInt8](repeating: 0, count: max(m2EncryptedData.count, m3EncryptedData.count))
            for _ in 0..<count {
                if let shared = try? controllerSecret.sharedSecret(with: accessoryPublicKey.span.bytes) { total &+= shared.count }
                for _ in 0..<3 {
                    var extract = HMACSHA512(key: salt.span.bytes)
                    extract.update(secret.span.bytes)
                    var expand = HMACSHA512(key: extract.finalize().span.bytes)
                    expand.update(info.span.bytes)
                    total &+= Int(expand.finalize()[0])
                }
                guard let key = keys?.encryptionKey else { continue }
                for (sealed, step) in [(m2EncryptedData, PairingMessage.pairVerifyM2), (m3EncryptedData, .pairVerifyM3)] {
                    sealed.withUnsafeBytes { sealed in
                        output.withUnsafeMutableBytes { output in
                            total &+= (try? ChaCha20Poly1305.open(sealed, key: key, nonce: step.nonce,
                                                                  authenticating: UnsafeRawBufferPointer(start: nil, count: 0), into: output)) ?? 0
                        }
                    }
                }
                for _ in 0..<2 where accessoryLTPK.isValidSignature(signature.span.bytes, for: signedM2.span.bytes) { total &+= 1 }
            }
            return total
        }
    }
}

/// One pair-setup's SRP values with the session key K and the proofs computed from it.
struct SRPMaterial {
    let salt: [UInt8]
    let controllerPublicKey: [UInt8]
    let accessoryPublicKey: [UInt8]
    let sessionKey: SecretBytes
    let controllerProof: [UInt8]
    let accessoryProof: [UInt8]

    init() throws(CryptoError) {
        var random = SeededRandom(seed: 0x5352_50)
        let salt = random.bytes(SRPGroup.saltByteCount)
        let controllerPublicKey = [0x7F] + random.bytes(SRPGroup.primeByteCount - 1)
        let accessoryPublicKey = [0x3C] + random.bytes(SRPGroup.primeByteCount - 1)
        let sessionKey = random.secret(SRPGroup.sessionKeyByteCount)
        let transcript = try SRPTranscript(
            salt: salt.span.bytes, controllerPublicKey: controllerPublicKey.span.bytes, accessoryPublicKey: accessoryPublicKey.span.bytes,
            sessionKey: sessionKey)
        let controllerProof = transcript.controllerProof()
        accessoryProof = transcript.accessoryProof(controllerProof: controllerProof.span.bytes)
        self.salt = salt
        self.controllerPublicKey = controllerPublicKey
        self.accessoryPublicKey = accessoryPublicKey
        self.sessionKey = sessionKey
        self.controllerProof = controllerProof
    }

    /// What the analyzer does at M3 and M4: build the transcript, match both proofs.
    func matchBenchmark() -> Benchmark {
        Benchmark(name: "crypto.srp-proofs", unit: .operation, bytesPerOperation: nil, iterations: 60_000) { [self] count in
            var matched = 0
            for _ in 0..<count {
                guard let transcript = try? SRPTranscript(
                    salt: salt.span.bytes, controllerPublicKey: controllerPublicKey.span.bytes,
                    accessoryPublicKey: accessoryPublicKey.span.bytes, sessionKey: sessionKey) else { continue }
                if transcript.matchControllerProof(controllerProof.span.bytes) != nil { matched += 1 }
                if transcript.matchAccessoryProof(accessoryProof.span.bytes, controllerProof: controllerProof.span.bytes) != nil { matched += 1 }
            }
            return matched
        }
    }

    /// SHA-512 over s ‖ A ‖ B ‖ K and over A ‖ M1 ‖ K: the hashing both proofs need once
    /// the constant prefix H(N) xor H(g) ‖ H(I) is cached.
    func hashBenchmark() -> Benchmark {
        let key = sessionKey.revealedBytes()
        return Benchmark(name: "libsodium.srp-sha512", unit: .operation, bytesPerOperation: nil, iterations: 60_000) { [self] count in
            var total = 0
            for _ in 0..<count {
                var first = SHA512()
                for part in [salt, controllerPublicKey, accessoryPublicKey, key] { first.update(part.span.bytes) }
                total &+= Int(first.finalize()[0])
                var second = SHA512()
                for part in [controllerPublicKey, controllerProof, key] { second.update(part.span.bytes) }
                total &+= Int(second.finalize()[0])
            }
            return total
        }
    }
}
