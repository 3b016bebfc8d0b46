import HAPEvents
// The rule catalogue: every check the audit makes, in the order docs/audit-rules.md lists them.
// Identifiers are stable; the slugs are those of captures/*.truth.json.

extension AuditRule {
    /// Every rule, grouped by category (pairing, session, discovery, database).
    public static let catalogue: [AuditRule] = [
        unverifiedRequest, setupWhilePaired, setupNoBackoff, srpMalformed, srpProofMismatch, forbiddenSetupCode,
        saltReuse, ephemeralKeyReuse, badSignature, pairingWithoutAdmin,
        nonceSkip, nonceReuse, frameAuthFailure, oversizeFrame, plaintextAfterEncryption, unsolicitedEvent,
        responseWithoutRequest,
        statusFlagUnpairedWhilePaired, serviceWithoutAddress, featureFlagMismatch, configurationNumberUnchanged,
        txtMalformed, setupHashMismatch,
        duplicateAID, duplicateIID, invalidJSON, missingAccessoryInformation, valueOutOfRange, unknownAppleType,
        malformedEntry, writeRejected,
    ]

    /// The rule with identifier `category/slug`, or with that slug alone; nil when none has it.
    public static func named(_ name: some StringProtocol) -> AuditRule? {
        catalogue.first { $0.id == name || $0.slug == name }
    }

    // MARK: Pairing

    public static let unverifiedRequest = AuditRule(
        .pairing, "unverified-request", severity: .high,
        because: "anyone on the network gets the access a paired controller has",
        title: "Request served without pair-verify",
        explanation: "The accessory answered /accessories, /characteristics or /pairings with success on a connection "
            + "that never completed pair-verify, in plaintext. Anyone on the network can then read the accessory "
            + "database, read and write characteristics and list or change pairings without any key.",
        reference: "PROTOCOL.md §0 (pair-verify precedes every other request), §5.1 (these endpoints need an "
            + "encrypted session), §5.4 (470 Connection Authorization Required; HAP-python answers 401)")

    public static let setupWhilePaired = AuditRule(
        .pairing, "setup-while-paired", severity: .high,
        because: "a second owner can be added with the setup code alone",
        title: "Pair setup accepted while already paired",
        explanation: "An accessory that already has a pairing must answer pair-setup M1 with M2 Error=Unavailable. "
            + "Answering with a normal M2 lets anyone who knows or guesses the setup code add an admin controller "
            + "next to the owner, without the owner's consent.",
        reference: "PROTOCOL.md §1.4 (Error 6 Unavailable: pair setup while already paired), §2.1, "
            + "§5.1 (POST /pair-setup only while unpaired)")

    public static let setupNoBackoff = AuditRule(
        .pairing, "setup-no-backoff", severity: .medium,
        because: "online guessing of the setup code is unbounded, though it still takes many attempts",
        title: "Repeated wrong setup codes never throttled",
        explanation: "Pair setup failed with Authentication (a wrong setup code) many times in a short burst, and the "
            + "accessory never answered Backoff or MaxTries. A setup code has only 10^8 values; an accessory that "
            + "lets a controller try codes as fast as it likes can be brute-forced from the local network.",
        reference: "PROTOCOL.md §1.4 (Error 3 Backoff; Error 5 MaxTries, after 100 failed attempts in ADK), "
            + "§2.1 (a wrong code fails at M4 and counts as a failed attempt)")

    public static let srpMalformed = AuditRule(
        .pairing, "srp-malformed", severity: .medium,
        because: "medium for a wrong salt length or an unreduced value; high when a value ≡ 0 mod N is sent "
            + "by the accessory or accepted by it (pairing without the setup code); low when the accessory refused "
            + "such a value; info for a value with its leading zero bytes stripped, which ADK and HAP-python send "
            + "on purpose",
        title: "SRP parameters break HAP's rules",
        explanation: "HAP's SRP-6a uses a 16-byte salt and 384-byte public values A and B that must not be 0 mod N. "
            + "A public value ≡ 0 mod N forces the shared secret to 0: an accessory that accepts A = 0 or A = N "
            + "(stock HAP-python 4.9.2 does) pairs with anyone, no setup code needed. A salt of another length breaks "
            + "interoperability. A or B shorter than 384 bytes is a value whose leading zero bytes were stripped: "
            + "legal, but controllers that hash it unpadded fail about one pair setup in 256.",
        reference: "PROTOCOL.md §2.2 (salt of 16 bytes; A mod N = 0 is an Authentication error), §2.3 (leading-zero "
            + "quirks), §1.2 (PublicKey at most 384 bytes)")

    public static let srpProofMismatch = AuditRule(
        .pairing, "srp-proof-mismatch", severity: .medium,
        because: "the accessory did not prove it holds the setup code's verifier; a correct controller aborts",
        title: "Accessory's SRP proof does not match the session key",
        explanation: "The accessory's M4 proof H(A ‖ M1 ‖ K) does not match the session key K that the controller's "
            + "own M3 proof matched. An accessory that cannot produce the proof does not hold the verifier of the "
            + "setup code: it is an impostor, or its SRP is broken. A controller that ignored the mismatch would "
            + "hand its long-term key to it.",
        reference: "PROTOCOL.md §2.2 (accessory proof M2 = H(A ‖ M1 ‖ K)), §2.1 (M4)")

    public static let forbiddenSetupCode = AuditRule(
        .pairing, "forbidden-setup-code", severity: .medium,
        because: "the code falls to the first guesses anyone tries",
        title: "Setup code is one HAP forbids",
        explanation: "The accessory's setup code (given with --setup-code) is one HAP forbids because it is guessed "
            + "first: all digits equal, 123-45-678 or 876-54-321. Anyone in range can pair with the unpaired "
            + "accessory within a few tries.",
        reference: "PROTOCOL.md §2.2 (setup-code validity: ADK rejects all-equal digits, 123-45-678 and 876-54-321)")

    public static let saltReuse = AuditRule(
        .pairing, "salt-reuse", severity: .info,
        because: "no controller checks it; it tells how the accessory stores its verifier",
        title: "SRP salt reused across pair setups",
        explanation: "A pair-setup M2 carried a salt the accessory had already sent in an earlier pair setup. ADK and "
            + "HAP-python draw a fresh salt for every M1; a repeated salt means a static verifier, so the verifier "
            + "stored on the device is the setup code's only protection if it leaks. Split pair setup, which reuses "
            + "a saved salt on purpose, is not reported.",
        reference: "PROTOCOL.md §2.2 (salt: 16 random bytes), §2.5 (Split keeps the salt and verifier of a "
            + "transient setup)")

    public static let ephemeralKeyReuse = AuditRule(
        .pairing, "ephemeral-key-reuse", severity: .medium,
        because: "medium: sessions lose their independence; high when both sides repeat their keys, so that the "
            + "session keys and nonces repeat too",
        title: "Pair-verify ephemeral key reused",
        explanation: "Pair verify must use a fresh X25519 key pair on each side for every session; that is what gives "
            + "each session its own keys and forward secrecy. A key pair used twice ties the sessions together: "
            + "whoever obtains its secret reads all of them, and when both sides repeat their keys the sessions "
            + "share their keys and nonces.",
        reference: "PROTOCOL.md §3 (M1, M2: ephemeral X25519 public keys), §4.1 (session keys derived from the "
            + "pair-verify shared secret)")

    public static let badSignature = AuditRule(
        .pairing, "bad-signature", severity: .high,
        because: "the signature is what proves who is on the other end",
        title: "Pairing signature does not verify",
        explanation: "An Ed25519 signature in pair-verify M2 or M3, or in pair-setup M5 or M6, does not verify with "
            + "the signer's long-term public key (from the key log or from a pair setup in the capture). The signer "
            + "is not the paired accessory or controller: an impostor or a man in the middle. A peer that went on "
            + "would talk to it.",
        reference: "PROTOCOL.md §3 (M2 signs AccessoryCvPK ‖ AccessoryPairingID ‖ iOSDeviceCvPK, M3 the controller's "
            + "counterpart; a bad signature is Error=Authentication), §2.4 (M5 and M6 signed material)")

    public static let pairingWithoutAdmin = AuditRule(
        .pairing, "pairing-without-admin", severity: .high,
        because: "a regular user can make itself, or anyone, an owner",
        title: "Pairings managed by a non-admin controller",
        explanation: "A /pairings request (add, remove or list) was accepted on a session verified by a controller "
            + "that is a regular user. Only admin controllers may manage pairings; an accessory that lets a regular "
            + "user add an admin lets every shared-home guest take it over.",
        reference: "PROTOCOL.md §1.6 (admins may add, remove and list pairings; pair setup creates an admin), "
            + "§5.1 (POST /pairings: encrypted session, admin), §1.4 (Error 2 Authentication)")

    // MARK: Session

    public static let nonceSkip = AuditRule(
        .session, "nonce-skip", severity: .medium,
        because: "the session breaks and deleted frames go unnoticed, but no plaintext is exposed",
        title: "Frame nonce counter skipped",
        explanation: "A frame was sealed with a counter above the one due: counter values were skipped. Each "
            + "direction's counter starts at 0 and grows by one per frame; receivers reject the frame and drop the "
            + "session, and a skipped counter is also how deleted frames show.",
        reference: "PROTOCOL.md §4.2 (nonce = counter, one per direction, +1 per frame; a decryption failure is fatal)")

    public static let nonceReuse = AuditRule(
        .session, "nonce-reuse", severity: .high,
        because: "a repeated nonce breaks both confidentiality and integrity",
        title: "Frame nonce counter reused",
        explanation: "A frame was sealed with a counter value an earlier frame of the same direction already used. "
            + "ChaCha20-Poly1305 under a repeated nonce repeats its keystream and its Poly1305 key: the XOR of the "
            + "two plaintexts leaks and forged frames become possible.",
        reference: "PROTOCOL.md §4.2 (one counter per direction, +1 per frame, never reset while the connection lives)")

    public static let frameAuthFailure = AuditRule(
        .session, "frame-auth-failure", severity: .medium,
        because: "the frame was altered or sealed wrongly; the session cannot go on",
        title: "Encrypted frame fails authentication",
        explanation: "A frame failed its Poly1305 tag check under keys that opened the earlier frames of the same "
            + "direction: it was altered in transit or sealed wrongly. Receivers must drop the connection; one that "
            + "did not would accept forged data.",
        reference: "PROTOCOL.md §4.2 (AAD = the length bytes; a decryption failure is fatal for the connection)")

    public static let oversizeFrame = AuditRule(
        .session, "oversize-frame", severity: .low,
        because: "conformance and interoperability; nothing is exposed",
        title: "Encrypted frame longer than 1024 bytes",
        explanation: "HAP frames carry at most 1024 bytes. ADK treats a longer length field as a decryption error and "
            + "closes the connection, and iOS reset connections on such frames; receivers that accept them buffer "
            + "whatever length the sender chooses.",
        reference: "PROTOCOL.md §4.2 (len ≤ 1024), §8 #11 (frames over 1024 bytes)")

    public static let plaintextAfterEncryption = AuditRule(
        .session, "plaintext-after-encryption", severity: .high,
        because: "the message is readable and forgeable by anyone on the network",
        title: "Plaintext after the session was encrypted",
        explanation: "Plaintext HTTP appeared on a connection after it had switched to encrypted frames. Its content "
            + "is readable by anyone on the network, and a receiver that accepts plaintext there accepts whatever "
            + "anyone injects.",
        reference: "PROTOCOL.md §0 (after pair-verify M4 both directions are frames for the rest of the connection), "
            + "§4.2 (start)")

    public static let unsolicitedEvent = AuditRule(
        .session, "unsolicited-event", severity: .low,
        because: "conformance; the receiving controller is paired and could read the value anyway",
        title: "EVENT for a characteristic not subscribed to",
        explanation: "The accessory sent an EVENT notification for a characteristic this connection never subscribed "
            + "to, or whose permissions lack ev. Events go only to connections that asked with \"ev\": true; others "
            + "leak changes to controllers that did not ask and confuse those that match events to subscriptions.",
        reference: "PROTOCOL.md §5.3 (events only for characteristics the connection subscribed to), §5.1 (ev writes "
            + "subscribe this connection only), §6 (perms: ev = notifies)")

    public static let responseWithoutRequest = AuditRule(
        .session, "response-without-request", severity: .medium,
        because: "a controller may take it as the answer to its next request",
        title: "HTTP response with no request outstanding",
        explanation: "The accessory sent an HTTP response when no request was waiting for one. HAP answers requests in "
            + "order on each connection, so a stray response is taken as the answer to the controller's next "
            + "request: the connection is desynchronised and a controller may act on a value it never asked for.",
        reference: "PROTOCOL.md §0, §5 (responses answer requests in order; only EVENT/1.0 is unsolicited), §8 #10")

    // MARK: Discovery

    public static let statusFlagUnpairedWhilePaired = AuditRule(
        .discovery, "sf-unpaired-while-paired", severity: .medium,
        because: "controllers lose the accessory and strangers are invited to pair",
        title: "Advertises 'not paired' while paired",
        explanation: "The accessory went on advertising status flag sf bit 0 (not paired, accepting pair setup) after "
            + "a pairing was stored. Controllers take it for a new accessory (iOS 14.2 and later cannot reach such "
            + "accessories), and the flag invites anyone nearby to try pair setup.",
        reference: "PROTOCOL.md §7 (sf bit 0: not paired), §2.1 (after M6 the accessory clears sf bit 0), §8 #17")

    public static let serviceWithoutAddress = AuditRule(
        .discovery, "srv-without-address", severity: .low,
        because: "discovery is slower or fails; nothing is exposed",
        title: "SRV record without an address record",
        explanation: "An mDNS response carried the accessory's SRV record but no A or AAAA record for its target host. "
            + "Controllers need another query before they can connect.",
        reference: "RFC 6763 §12.2 (responders add the SRV target's addresses); PROTOCOL.md §7")

    public static let featureFlagMismatch = AuditRule(
        .discovery, "ff-mismatch", severity: .medium,
        because: "hardware authentication of the accessory was skipped or claimed falsely",
        title: "Pairing feature flags do not match the pair-setup method",
        explanation: "The advertised ff tells controllers whether the accessory authenticates with an Apple "
            + "coprocessor (bit 0). A pair setup with plain PairSetup to an accessory advertising bit 0 skips that "
            + "authentication (a downgrade: a clone cannot be told from the genuine accessory); PairSetupWithAuth to "
            + "one that does not advertise it uses a method the accessory says it lacks. The accessory went along.",
        reference: "PROTOCOL.md §7 (ff bit 0: Apple Authentication Coprocessor), §2.6 (MFi setup: M1 Method = 1), "
            + "§1.3 (methods)")

    public static let configurationNumberUnchanged = AuditRule(
        .discovery, "config-number-unchanged", severity: .low,
        because: "controllers miss the change; nothing is exposed",
        title: "Accessory database changed without a new c#",
        explanation: "The /accessories body changed in structure (accessories, services or characteristics added, "
            + "removed or redefined) while the advertised configuration number c# stayed the same. Controllers "
            + "cache the database by c# and re-read it only when c# changes, so they keep the stale one.",
        reference: "PROTOCOL.md §7 (c#: bumped whenever the attribute database changes)")

    public static let txtMalformed = AuditRule(
        .discovery, "txt-malformed", severity: .low,
        because: "controllers may fail to list, identify or pair the accessory",
        title: "Bonjour TXT record malformed",
        explanation: "The accessory's _hap._tcp TXT record lacks a key HAP requires or has a malformed value: id not "
            + "of the form XX:XX:XX:XX:XX:XX, pv not major.minor, ci not a category, c# out of range, a value that "
            + "is not a decimal number. Controllers identify, list and pair accessories by these keys.",
        reference: "PROTOCOL.md §7 (TXT keys c#, ff, id, md, pv, s#, sf, ci, sh)")

    public static let setupHashMismatch = AuditRule(
        .discovery, "setup-hash-mismatch", severity: .low,
        because: "setup by QR code or NFC fails; nothing is exposed",
        title: "Setup hash does not match the setup ID",
        explanation: "The advertised sh is not the first four bytes of SHA-512(setup ID ‖ device ID) for the setup ID "
            + "given with --setup-id. A controller that scanned the accessory's setup payload looks for that hash "
            + "and does not find the accessory.",
        reference: "PROTOCOL.md §7 (setup hash)")

    // MARK: Attribute database

    public static let duplicateAID = AuditRule(
        .database, "duplicate-aid", severity: .medium,
        because: "reads and writes can reach the wrong accessory",
        title: "Two accessories share an aid",
        explanation: "Two accessories in /accessories have the same aid. Controllers address characteristics by "
            + "aid.iid, so reads, writes and events of one reach the other: a write meant for a switch can move a lock.",
        reference: "PROTOCOL.md §6 (aid: the accessory's instance id; 1 = the bridge, bridged accessories ≠ 1)")

    public static let duplicateIID = AuditRule(
        .database, "duplicate-iid", severity: .medium,
        because: "writes can reach the wrong characteristic; low when only a service and a characteristic clash, "
            + "a rule fewer sources confirm",
        title: "Two services or characteristics share an iid",
        explanation: "Within one accessory, iids are unique across services and characteristics. A repeated iid makes "
            + "aid.iid ambiguous: the element listed second cannot be read or written, and writes meant for it "
            + "change the first.",
        reference: "PROTOCOL.md §6 (iid: unique within the accessory across services and characteristics), §9")

    public static let invalidJSON = AuditRule(
        .database, "invalid-json", severity: .medium,
        because: "controllers cannot use the accessory",
        title: "/accessories body is not valid JSON",
        explanation: "The attribute database is not valid JSON; the finding names the first byte at fault. Controllers "
            + "cannot read the accessory at all, and lenient parsers may read something the accessory did not mean.",
        reference: "PROTOCOL.md §6 and §5.2 (application/hap+json attribute database); RFC 8259")

    public static let missingAccessoryInformation = AuditRule(
        .database, "missing-accessory-information", severity: .medium,
        because: "HomeKit refuses accessories without it",
        title: "Accessory Information service missing or incomplete",
        explanation: "Every accessory needs exactly one Accessory Information service (3E) with Identify, Manufacturer, "
            + "Model, Name, Serial Number and Firmware Revision, within ADK's length limits. HomeKit refuses "
            + "accessories without it, and controllers identify accessories by it.",
        reference: "PROTOCOL.md §6 (Accessory Information service: exactly one per accessory, its required "
            + "characteristics and lengths), §8 #19")

    public static let valueOutOfRange = AuditRule(
        .database, "value-out-of-range", severity: .low,
        because: "a wrong state is shown or refused; nothing is exposed",
        title: "Characteristic value breaks its metadata",
        explanation: "A characteristic value in /accessories, a read or an event lies outside minValue and maxValue, is "
            + "not a whole number of minStep, is not among its valid-values, or has the wrong JSON kind for its "
            + "format. Controllers reject or clamp such values and may show a wrong state.",
        reference: "PROTOCOL.md §6 (format, minValue, maxValue, minStep, valid-values, maxLen), §8 #7 and #18")

    public static let unknownAppleType = AuditRule(
        .database, "unknown-apple-type", severity: .low,
        because: "controllers ignore the element or misread it once Apple assigns the type",
        title: "Undefined type in Apple's UUID range",
        explanation: "A service or characteristic type uses Apple's base UUID (0000XXXX-0000-1000-8000-0026BB765291) "
            + "but no HAP source defines it. Only Apple assigns types in that range; vendors use UUIDs of their own.",
        reference: "PROTOCOL.md §6 (UUIDs: Apple types are 0000XXXX-0000-1000-8000-0026BB765291)")

    public static let malformedEntry = AuditRule(
        .database, "malformed-entry", severity: .low,
        because: "the element, and the feature it carries, disappears from controllers",
        title: "Attribute database element malformed",
        explanation: "An accessory, service or characteristic in /accessories lacks a field HAP requires, has a field "
            + "of the wrong type, or uses a perm, format or unit HAP does not define. Controllers skip such elements.",
        reference: "PROTOCOL.md §6 (the keys and values of the attribute database)")

    public static let writeRejected = AuditRule(
        .database, "write-rejected", severity: .info,
        because: "rejecting a write breaks no rule; the statuses are evidence for the controller's or the "
            + "accessory's authors",
        title: "Characteristic writes rejected",
        explanation: "The accessory rejected characteristic writes with a HAP status; the evidence groups them by "
            + "status. A rejection is the accessory enforcing its rules: the finding shows which writes failed and "
            + "why, e.g. a controller that ignores perms or ranges, or an accessory that refuses what it should take.",
        reference: "PROTOCOL.md §5.1 (PUT /characteristics: 204, or 207 with a status per entry), §5.5 (HAP status codes)")
}
