import HAPEvents
// The rule catalogue: every check the audit makes, in the order docs/audit-rules.md lists them.
// Identifiers are stable; the slugs are those of captures/*.truth.json.

extension AuditRule {
    /// Every rule, grouped by category (pairing, session, discovery, database).
    public static let catalogue: [AuditRule] = [
        unverifiedRequest, secureAccessWithoutSession, setupWhilePaired, setupNoBackoff, srpMalformed, srpProofMismatch, forbiddenSetupCode,
        saltReuse, ephemeralKeyReuse, badSignature, pairingWithoutAdmin, pairingRemovedAfterSetup, verifyAfterRemoval,
        nonceSkip, nonceReuse, frameAuthFailure, oversizeFrame, plaintextAfterEncryption, counterDrift, retransmissionDiffers,
        unsolicitedEvent, responseWithoutRequest, transactionIDMismatch, broadcastKeyExpired, slowResponse, lateResponse, unansweredRequest,
        closedWithOutstandingRequests, serviceCommunicationFailure,
        eventBurst, eventInsideResponse, eventAfterUnsubscribe,
        statusFlagUnpairedWhilePaired, statusFlagNotRestored, serviceWithoutAddress, featureFlagMismatch,
        configurationNumberUnchanged, configurationNumberNotBumped, configurationNumberChangedWithoutChange,
        txtMalformed, setupHashMismatch, globalStateNumberNotBumped,
        duplicateAID, duplicateIID, invalidJSON, missingAccessoryInformation, valueOutOfRange, unknownAppleType,
        malformedEntry, writeRejected, missingRequiredCharacteristic, unexpectedCharacteristic, invalidName,
        invalidPermissions, duplicateName, formatMismatch, unitMismatch, tooManyAccessories, tooManyServices,
        tooManyCharacteristics, databaseTooLarge, iidRenumbered, malformedCharacteristicsBody,
    ]

    /// The rule with identifier `category/slug`, or with that slug alone; nil when none has it.
    public static func named(_ name: some StringProtocol) -> AuditRule? {
        catalogue.first { $0.id == name || $0.slug == name }
    }

    // MARK: Pairing

    public static let unverifiedRequest = AuditRule(
        .pairing, "unverified-request", severity: .high,
        because: "anyone on the network gets the access a paired controller has",
        party: .accessory,
        title: "Request served without pair-verify",
        explanation: "The accessory answered /accessories, /characteristics or /pairings with success on a connection "
            + "that never completed pair-verify, in plaintext. Anyone on the network can then read the accessory "
            + "database, read and write characteristics and list or change pairings without any key.",
        reference: "PROTOCOL.md §0 (pair-verify precedes every other request), §5.1 (these endpoints need an "
            + "encrypted session), §5.4 (470 Connection Authorization Required; HAP-python answers 401)")

    public static let secureAccessWithoutSession = AuditRule(
        .pairing, "secure-access-without-session", severity: .high,
        because: "anyone in radio range reads or sets what only a paired controller may",
        party: .accessory,
        title: "Secure characteristic served without a session",
        explanation: "A HAP-BLE characteristic whose properties allow reads (or writes) only over a secured session "
            + "(Secure Read 0x0010 without Read 0x0001, Secure Write 0x0020 without Write 0x0002) was read or written "
            + "with status Success on a connection that never completed pair-verify or pair-resume. HAP answers "
            + "Insufficient Authentication (status 5) there; serving it lets anyone in radio range read or change the "
            + "accessory's state without a key.",
        reference: "PROTOCOL.md §10.2 (HomeKitADK HAPBLEProcedure.c answers an unsecured read or write of a "
            + "secure-only characteristic with status 5, Insufficient Authentication)")

    public static let setupWhilePaired = AuditRule(
        .pairing, "setup-while-paired", severity: .high,
        because: "a second owner can be added with the setup code alone",
        party: .accessory,
        title: "Pair setup accepted while already paired",
        explanation: "An accessory that already has a pairing must answer pair-setup M1 with M2 Error=Unavailable. "
            + "Answering with a normal M2 lets anyone who knows or guesses the setup code add an admin controller "
            + "next to the owner, without the owner's consent.",
        reference: "PROTOCOL.md §1.4 (Error 6 Unavailable: pair setup while already paired), §2.1, "
            + "§5.1 (POST /pair-setup only while unpaired)")

    public static let setupNoBackoff = AuditRule(
        .pairing, "setup-no-backoff", severity: .medium,
        because: "online guessing of the setup code is unbounded, though it still takes many attempts",
        party: .accessory,
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
        party: .accessory,
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
        party: .accessory,
        title: "Accessory's SRP proof does not match the session key",
        explanation: "The accessory's M4 proof H(A ‖ M1 ‖ K) does not match the session key K that the controller's "
            + "own M3 proof matched. An accessory that cannot produce the proof does not hold the verifier of the "
            + "setup code: it is an impostor, or its SRP is broken. A controller that ignored the mismatch would "
            + "hand its long-term key to it.",
        reference: "PROTOCOL.md §2.2 (accessory proof M2 = H(A ‖ M1 ‖ K)), §2.1 (M4)")

    public static let forbiddenSetupCode = AuditRule(
        .pairing, "forbidden-setup-code", severity: .medium,
        because: "the code falls to the first guesses anyone tries",
        party: .accessory,
        title: "Setup code is one HAP forbids",
        explanation: "The accessory's setup code (given with --setup-code) is one HAP forbids because it is guessed "
            + "first: all digits equal, 123-45-678 or 876-54-321. Anyone in range can pair with the unpaired "
            + "accessory within a few tries.",
        reference: "PROTOCOL.md §2.2 (setup-code validity: ADK rejects all-equal digits, 123-45-678 and 876-54-321)")

    public static let saltReuse = AuditRule(
        .pairing, "salt-reuse", severity: .info,
        because: "no controller checks it; by design for a provisioned setup code (ADK sends the stored salt in every "
            + "M2); low when the user says the accessory generates its codes (--setup-code-kind generated), for which "
            + "ADK draws a new salt and verifier every time",
        party: .accessory,
        title: "SRP salt reused across pair setups",
        explanation: "A pair-setup M2 carried a salt the accessory had already sent in an earlier pair setup: the "
            + "accessory answers from one stored salt and verifier. For a setup code provisioned at manufacture (on a "
            + "label) that is HAP's design: ADK returns the salt and verifier stored at provisioning for every pair "
            + "setup, and only the SRP secret b is new. For a code the accessory generates and displays, ADK draws a "
            + "fresh salt and verifier each time, as HAP-python does for every M1; a repeat there means a static "
            + "verifier, whose leak gives the code away. Split pair setup, which reuses a saved salt on purpose, is "
            + "not reported.",
        reference: "PROTOCOL.md §2.2 (salt: 16 random bytes; ADK HAPAccessorySetupInfo.c: a provisioned code's stored "
            + "salt and verifier, a generated code's fresh ones), §2.5 (Split keeps the salt and verifier of a "
            + "transient setup)")

    public static let ephemeralKeyReuse = AuditRule(
        .pairing, "ephemeral-key-reuse", severity: .medium,
        because: "medium: sessions lose their independence; high when both sides repeat their keys, so that the "
            + "session keys and nonces repeat too",
        party: .accessory,
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
        party: .accessory,
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
        party: .accessory,
        title: "Pairings managed by a non-admin controller",
        explanation: "A /pairings request (add, remove or list) was accepted on a session verified by a controller "
            + "that is a regular user. Only admin controllers may manage pairings; an accessory that lets a regular "
            + "user add an admin lets every shared-home guest take it over.",
        reference: "PROTOCOL.md §1.6 (admins may add, remove and list pairings; pair setup creates an admin), "
            + "§5.1 (POST /pairings: encrypted session, admin), §1.4 (Error 2 Authentication)")

    public static let pairingRemovedAfterSetup = AuditRule(
        .pairing, "pairing-removed-after-setup", severity: .medium,
        because: "the controller rejected the accessory: the home lost it right after adding it",
        party: .accessory,
        title: "Controller removed its pairing right after reading the database",
        explanation: "On its first verified session after pair setup, the controller read /accessories and then removed "
            + "its own pairing, having asked for nothing else. That is what iOS does with an accessory whose database it "
            + "rejects (\"Accessory is out of compliance\"): the accessory is not added. The finding lists the "
            + "database findings of the body the controller read; with none, hapscope's rules do not explain the "
            + "rejection.",
        reference: "PROTOCOL.md §1.6 (Remove Pairing), §6 (the attribute database); homebridge/homebridge#3952 (the "
            + "Home app rejects a whole bridge whose database breaks a HAP rule)")

    public static let verifyAfterRemoval = AuditRule(
        .pairing, "verify-after-removal", severity: .low,
        because: "the accessory did what HAP says; the controller that removed the last admin left the others paired "
            + "to nothing, and they must pair again",
        party: .controller,
        title: "Pair verify failed for a pairing removed with the last admin",
        explanation: "A controller whose pairing was never removed by name failed pair verify after the last admin "
            + "pairing was removed. HAP removes every pairing with the last admin, so the accessory was right to "
            + "refuse; the controller that removed itself as the last admin did not remove (or hand admin rights to) "
            + "the others first, and they lost the accessory without being told.",
        reference: "PROTOCOL.md §1.6 (removing the last admin removes every pairing; ADK HAPPairingPairings.c), "
            + "§3 (pair verify M2/M4 Error=Authentication)")

    // MARK: Session

    public static let nonceSkip = AuditRule(
        .session, "nonce-skip", severity: .medium,
        because: "the session breaks and deleted frames go unnoticed, but no plaintext is exposed",
        party: .accessory,
        title: "Frame nonce counter skipped",
        explanation: "A frame was sealed with a counter above the one due: counter values were skipped. Each "
            + "direction's counter starts at 0 and grows by one per frame; receivers reject the frame and drop the "
            + "session, and a skipped counter is also how deleted frames show.",
        reference: "PROTOCOL.md §4.2 (nonce = counter, one per direction, +1 per frame; a decryption failure is fatal)")

    public static let nonceReuse = AuditRule(
        .session, "nonce-reuse", severity: .high,
        because: "a repeated nonce breaks both confidentiality and integrity",
        party: .accessory,
        title: "Frame nonce counter reused",
        explanation: "A frame was sealed with a counter value an earlier frame of the same direction already used. "
            + "ChaCha20-Poly1305 under a repeated nonce repeats its keystream and its Poly1305 key: the XOR of the "
            + "two plaintexts leaks and forged frames become possible.",
        reference: "PROTOCOL.md §4.2 (one counter per direction, +1 per frame, never reset while the connection lives)")

    public static let frameAuthFailure = AuditRule(
        .session, "frame-auth-failure", severity: .medium,
        because: "the frame was altered or sealed wrongly; the session cannot go on",
        party: .accessory,
        title: "Encrypted frame fails authentication",
        explanation: "A frame failed its Poly1305 tag check under keys that opened the earlier frames of the same "
            + "direction: it was altered in transit or sealed wrongly. Receivers must drop the connection; one that "
            + "did not would accept forged data.",
        reference: "PROTOCOL.md §4.2 (AAD = the length bytes; a decryption failure is fatal for the connection)")

    public static let oversizeFrame = AuditRule(
        .session, "oversize-frame", severity: .low,
        because: "conformance and interoperability; nothing is exposed",
        party: .accessory,
        title: "Encrypted frame longer than 1024 bytes",
        explanation: "HAP frames carry at most 1024 bytes. ADK treats a longer length field as a decryption error and "
            + "closes the connection, and iOS reset connections on such frames; receivers that accept them buffer "
            + "whatever length the sender chooses.",
        reference: "PROTOCOL.md §4.2 (len ≤ 1024), §8 #11 (frames over 1024 bytes)")

    public static let plaintextAfterEncryption = AuditRule(
        .session, "plaintext-after-encryption", severity: .high,
        because: "the message is readable and forgeable by anyone on the network",
        party: .accessory,
        title: "Plaintext after the session was encrypted",
        explanation: "Plaintext HTTP (over CoAP or Bluetooth LE: plaintext HAP PDUs) appeared on a connection after it "
            + "had switched to encrypted frames. Its content "
            + "is readable by anyone on the network, and a receiver that accepts plaintext there accepts whatever "
            + "anyone injects.",
        reference: "PROTOCOL.md §0 (after pair-verify M4 both directions are frames for the rest of the connection), "
            + "§4.2 (start)")

    public static let counterDrift = AuditRule(
        .session, "counter-drift", severity: .low,
        because: "low when the controller's recovery search reaches the counter and it goes on in step; medium when it "
            + "does not, for then the controller drops the session (and the response or event) and pair-verifies again",
        party: .accessory,
        title: "Sealed body opened only under another counter",
        explanation: "Over HAP over CoAP each request, response and event body steps its own counter by one, yet this "
            + "body opened only under a counter other than the one due: the sender's counter drifted (a lost or "
            + "re-sent body, a restarted session). Unlike HAP over IP the receiver does not drop the session at once: "
            + "aiohomekit tries the response counters 5 either side and then 0, and gives up beyond that, and it "
            + "never searches for an event's counter. Field reports of \"desynchronized\" Thread accessories are this.",
        reference: "PROTOCOL.md §4.2 (a counter per direction, one step per message); docs/coap.md (\"Session keys, nonce "
            + "and counters\": three counters over CoAP); aiohomekit 4.0.1 controller/coap/connection.py "
            + "(_decrypt_response, EventResource.render_put); home-assistant/core #86028, #153904")

    public static let retransmissionDiffers = AuditRule(
        .session, "retransmission-differs", severity: .medium,
        because: "the receiver drops the copy as a duplicate, so what it changes never arrives; sealed under the "
            + "counter of the original, it also repeats a nonce with another plaintext",
        party: .accessory,
        title: "Retransmission with other content",
        explanation: "A CoAP message was sent again under the message ID of an earlier one (which marks it as a "
            + "retransmission) but with other bytes. The receiver's CoAP layer takes it for a duplicate, answers with "
            + "its stored reply and never hands it on, so the new content is lost; a sealed body under the same "
            + "counter as the original also repeats the ChaCha20-Poly1305 nonce with another plaintext.",
        reference: "RFC 7252 §4.2, §4.5 (a retransmission is the same message; duplicates are detected by message ID "
            + "and dropped); docs/coap.md (\"Retransmissions\")")

    public static let unsolicitedEvent = AuditRule(
        .session, "unsolicited-event", severity: .low,
        because: "conformance; the receiving controller is paired and could read the value anyway",
        party: .accessory,
        title: "EVENT for a characteristic not subscribed to",
        explanation: "The accessory sent an EVENT notification for a characteristic this connection never subscribed "
            + "to, or whose permissions lack ev. Events go only to connections that asked with \"ev\": true; others "
            + "leak changes to controllers that did not ask and confuse those that match events to subscriptions.",
        reference: "PROTOCOL.md §5.3 (events only for characteristics the connection subscribed to), §5.1 (ev writes "
            + "subscribe this connection only), §6 (perms: ev = notifies)")

    public static let responseWithoutRequest = AuditRule(
        .session, "response-without-request", severity: .medium,
        because: "a controller may take it as the answer to its next request",
        party: .accessory,
        title: "HTTP response with no request outstanding",
        explanation: "The accessory sent an HTTP response when no request was waiting for one. HAP answers requests in "
            + "order on each connection, so a stray response is taken as the answer to the controller's next "
            + "request: the connection is desynchronised and a controller may act on a value it never asked for.",
        reference: "PROTOCOL.md §0, §5 (responses answer requests in order; only EVENT/1.0 is unsolicited), §8 #10")

    public static let transactionIDMismatch = AuditRule(
        .session, "transaction-id-mismatch", severity: .medium,
        because: "the controller cannot tell which request was answered and drops the connection",
        party: .accessory,
        title: "HAP PDU response with another transaction's ID",
        explanation: "A HAP PDU response (HAP-BLE, HAP over CoAP) must carry the transaction ID of the request it "
            + "answers. One with another TID answers no outstanding request: aiohomekit raises 'Expected transaction' "
            + "and disconnects, and a controller that did accept it would act on a value it never asked for.",
        reference: "PROTOCOL.md §10.1 (HomeKitADK HAPBLEProcedure.c answers with the request's TID; aiohomekit 4.0.1 "
            + "disconnects on another)")

    public static let broadcastKeyExpired = AuditRule(
        .session, "broadcast-key-expired", severity: .medium,
        because: "the GSN is the key's nonce: kept past its lifetime, the key comes closer to sealing two notifications "
            + "under one nonce, which a listener in radio range can read and forge; the controller keeps trusting it",
        party: .accessory,
        title: "HAP-BLE broadcast sent under an expired key",
        explanation: "An encrypted notification advertisement opened under the broadcast key the capture shows being "
            + "generated (Protocol Configuration, Generate-Broadcast-Encryption-Key), with a GSN 32,767 or more increments "
            + "after the GSN the accessory stated at that generation. The key expires there: the accessory must discard "
            + "it and send no encrypted notification until a controller generates a new one. The GSN is the key's "
            + "ChaCha20-Poly1305 nonce and wraps at 65535, so a key kept in use heads for nonce reuse. Counted from the "
            + "first GSN the accessory stated after the generation, so the key was at least this old; not judged when "
            + "the generation is not in the capture.",
        reference: "PROTOCOL.md §10.3 (HomeKitADK HAPBLEAccessoryServer+Broadcast.c: expiration GSN gsn + 32767 − 1, "
            + "less 65535 above it; HAPBLEAccessoryServerIncrementGSN discards the key at it; HAP R14 §7.4.7.4 as quoted "
            + "there)")

    // MARK: Session: "No Response"

    public static let slowResponse = AuditRule(
        .session, "slow-response", severity: .low,
        because: "low while the controller still waits (HAP-NodeJS warns after 3 s); medium past 10 s, when HAP-NodeJS "
            + "gives up on its own handler and answers -70408, and a home shows the accessory as \"No Response\"",
        party: .accessory,
        title: "Response slower than controllers wait for",
        explanation: "The accessory answered a request more than 3 s after it arrived. HAP answers requests in order on "
            + "a connection, so every later request waits too; controllers time out (HAP-NodeJS gives up on a read or "
            + "write handler after 10 s, aiohomekit on a response after 30 s) and show the characteristic as \"No "
            + "Response\". The time is the accessory's: from the request's last packet to the response's first.",
        reference: "PROTOCOL.md §5 (responses in order); HAP-NodeJS src/lib/Characteristic.ts and Accessory.ts "
            + "(slow-handler warning at 3 s, -70408 at 10 s); aiohomekit controller/ip/connection.py (30 s)")

    public static let lateResponse = AuditRule(
        .session, "late-response", severity: .medium,
        because: "the answer reaches no one: the controller has dropped the session, shows \"No Response\" and "
            + "pair-verifies again",
        party: .accessory,
        title: "Response after the controller gave up",
        explanation: "The accessory answered a request after the controller's own timeout for it had passed (over HAP "
            + "over CoAP aiohomekit waits 16 s for an encrypted request's response, less than CoAP's own "
            + "MAX_TRANSMIT_WAIT of 93 s, then raises \"Request timeout\" and closes the session's port). Sleepy "
            + "Thread devices behind a border router show this way: the answer is lost and the session with it.",
        reference: "aiohomekit 4.0.1 controller/coap/connection.py (EncryptionContext.post_bytes timeout=16.0); "
            + "RFC 7252 §4.8.2 (MAX_TRANSMIT_WAIT, EXCHANGE_LIFETIME); docs/coap.md")

    public static let unansweredRequest = AuditRule(
        .session, "unanswered-request", severity: .medium,
        because: "the controller times out and shows the accessory as \"No Response\"; every later request on the "
            + "connection waits behind it",
        party: .accessory,
        title: "Request never answered",
        explanation: "The capture shows a request the accessory never answered: the connection was closed or reset "
            + "with it outstanding, or it had waited more than 3 s when the capture ended. HAP answers every request, "
            + "in order; one left unanswered blocks the connection until the controller gives up on it.",
        reference: "PROTOCOL.md §5 (every request gets one response, in order); aiohomekit controller/ip/connection.py "
            + "(closes the connection after 30 s without a response)")

    public static let closedWithOutstandingRequests = AuditRule(
        .session, "closed-with-outstanding-requests", severity: .low,
        because: "the outcome of the requests is unknown to the controller (a write may or may not have taken "
            + "effect); the cause is usually the unanswered request itself",
        party: .accessory,
        title: "Connection closed with requests outstanding",
        explanation: "The connection ended with a FIN or an RST, from either side, while requests were waiting for "
            + "their responses. A controller that gives up on an accessory closes the connection (aiohomekit after "
            + "30 s); an accessory that closes or resets it loses the answers it owed. Either way the controller "
            + "must reconnect and pair-verify again before it can retry.",
        reference: "PROTOCOL.md §5 (every request gets one response); aiohomekit controller/ip/connection.py "
            + "(AccessoryDisconnectedError: Timeout while waiting for response)")

    public static let serviceCommunicationFailure = AuditRule(
        .session, "service-communication-failure", severity: .low,
        because: "the characteristic shows as \"No Response\" in the home; nothing is exposed",
        party: .accessory,
        title: "Characteristic answered -70402 (unable to communicate)",
        explanation: "The accessory answered a read, write or EVENT with HAP status -70402: it could not reach the "
            + "service behind the characteristic (a bridge that lost its bridged device, a sensor offline). "
            + "Controllers show the characteristic as \"No Response\". The status is reported as the accessory sent "
            + "it; some devices send it positive (70402), which hapscope reads as -70402.",
        reference: "PROTOCOL.md §5.5 (-70402 unable to communicate with the requested service), §8 #15 (positive "
            + "status codes); HAP-python pyhap/accessory_driver.py get_characteristics (answers -70402 for an accessory whose available is false)")

    // MARK: Session: events

    public static let eventBurst = AuditRule(
        .session, "event-burst", severity: .low,
        because: "conformance; controllers and the network carry a flood of notifications, nothing is exposed",
        party: .accessory,
        title: "EVENTs faster than HAP's notification coalescing",
        explanation: "Three or more EVENTs for one characteristic arrived on a connection within less than 1 s. HAP "
            + "asks accessories to coalesce network notifications with a delay of no less than 1 second "
            + "(HomeKitADK and HAP-python coalesce); a burst floods the controller and the hub that relays it. "
            + "Programmable Switch Event and Button Event are exempt: they are delivered at once.",
        reference: "PROTOCOL.md §5.3 (coalescing); HAP R17 §6.8 as quoted by HomeKitADK HAP/HAPIPAccessoryServer.c "
            + "(kHAPIPAccessoryServer_MaxEventNotificationDelay, 1 s); HAP-python pyhap/hap_protocol.py "
            + "(EVENT_COALESCE_TIME_WINDOW) and pyhap/characteristic.py (IMMEDIATE_NOTIFY)")

    public static let eventInsideResponse = AuditRule(
        .session, "event-inside-response", severity: .low,
        because: "conformance; controllers that expect the response next may take the EVENT for it",
        party: .accessory,
        title: "EVENT sent while a request awaited its response",
        explanation: "The accessory sent an EVENT after a request had arrived whole (more than 0.1 s before) and "
            + "before it answered that request. HomeKitADK writes EVENTs only to a connection waiting for a request "
            + "with nothing of one received; a controller reading the connection as request, response, request "
            + "may take the EVENT for the answer it waits for.",
        reference: "HomeKitADK HAP/HAPIPAccessoryServer.c (schedule_event_notifications: only in state Reading with "
            + "an empty inbound buffer); PROTOCOL.md §5.3")

    public static let eventAfterUnsubscribe = AuditRule(
        .session, "event-after-unsubscribe", severity: .low,
        because: "conformance; the controller is paired and could read the value anyway",
        party: .accessory,
        title: "EVENT after the controller unsubscribed",
        explanation: "The accessory sent an EVENT for a characteristic after it had answered the controller's "
            + "\"ev\": false for it on the same connection with success. Unsubscribing ends notifications for that "
            + "connection; EVENTs after it cost the controller and the network and show the subscription state is "
            + "lost.",
        reference: "PROTOCOL.md §5.1 (ev writes subscribe or unsubscribe this connection), §5.3")

    // MARK: Discovery

    public static let statusFlagUnpairedWhilePaired = AuditRule(
        .discovery, "sf-unpaired-while-paired", severity: .medium,
        because: "controllers lose the accessory and strangers are invited to pair",
        party: .accessory,
        title: "Advertises 'not paired' while paired",
        explanation: "The accessory went on advertising status flag sf bit 0 (not paired, accepting pair setup) after "
            + "a pairing was stored. Controllers take it for a new accessory (iOS 14.2 and later cannot reach such "
            + "accessories), and the flag invites anyone nearby to try pair setup.",
        reference: "PROTOCOL.md §7 (sf bit 0: not paired), §2.1 (after M6 the accessory clears sf bit 0), §8 #17")

    public static let statusFlagNotRestored = AuditRule(
        .discovery, "sf-not-restored", severity: .medium,
        because: "controllers take the unpaired accessory for a paired one and offer no pair setup",
        party: .accessory,
        title: "Still advertises 'paired' after every pairing was removed",
        explanation: "After the last admin pairing was removed, and with it every pairing, the accessory never set sf bit "
            + "0 again. Controllers believe it paired to someone and do not offer to add it; the owner has to reset it.",
        reference: "PROTOCOL.md §7 (sf bit 0: not paired), §1.6 (removing the last admin removes every pairing)")

    public static let serviceWithoutAddress = AuditRule(
        .discovery, "srv-without-address", severity: .low,
        because: "discovery is slower or fails; nothing is exposed",
        party: .accessory,
        title: "SRV record without an address record",
        explanation: "An mDNS response carried the accessory's SRV record but no A or AAAA record for its target host. "
            + "Controllers need another query before they can connect.",
        reference: "RFC 6763 §12.2 (responders add the SRV target's addresses); PROTOCOL.md §7")

    public static let featureFlagMismatch = AuditRule(
        .discovery, "ff-mismatch", severity: .medium,
        because: "medium for the downgrade, plain PairSetup to an accessory with a coprocessor: its hardware "
            + "authentication is skipped; info for PairSetupWithAuth to one without: nothing is skipped, homekit_python "
            + "sends it to every accessory and HAP-python ignores the method",
        party: .controller,
        title: "Pairing feature flags do not match the pair-setup method",
        explanation: "The advertised ff tells controllers whether the accessory authenticates with an Apple "
            + "coprocessor (bit 0). A pair setup with plain PairSetup (Method 0) to an accessory advertising bit 0 skips "
            + "that authentication: a downgrade, after which a clone cannot be told from the genuine accessory. "
            + "PairSetupWithAuth (Method 1) to an accessory without bit 0 asks for a method it says it lacks: no "
            + "authentication is skipped, but ADK fails such a pair setup at M4 (500), so the controller cannot pair "
            + "with it.",
        reference: "PROTOCOL.md §7 (ff bit 0: Apple Authentication Coprocessor), §2.6 (MFi setup: M1 Method = 1), "
            + "§1.3 (methods; homekit_python numbers PairSetup 1, its issues #199 and #204; ADK "
            + "HAPPairingPairSetupGetM4 without a coprocessor)")

    public static let configurationNumberUnchanged = AuditRule(
        .discovery, "config-number-unchanged", severity: .low,
        because: "controllers miss the change; nothing is exposed",
        party: .accessory,
        title: "Accessory database changed without a new configuration number",
        explanation: "The accessory database changed in structure (accessories, services or characteristics added, "
            + "removed or redefined) while the advertised configuration number stayed the same: c# over IP, where the "
            + "/accessories body changed; CN in the HAP-BLE advertisement, where an LE connection's GATT discovery, "
            + "instance IDs or signatures differ from what an earlier one read. Controllers cache the database by that "
            + "number and read it again only when it changes, so they keep the stale one (aiohomekit kept its cached "
            + "BLE database in captures/ble/ble-configuration-number-unchanged).",
        reference: "PROTOCOL.md §7 (c#: bumped whenever the attribute database changes), §10.4 (CN in the HAP-BLE "
            + "advertisement; HomeKitADK HAP.h HAPAccessoryServerIncrementCN: when an accessory, service or characteristic is "
            + "added or removed)")

    public static let configurationNumberNotBumped = AuditRule(
        .discovery, "config-number-not-bumped", severity: .low,
        because: "controllers keep the stale database; nothing is exposed",
        party: .accessory,
        title: "Database changed since the previous capture without a new c#",
        explanation: "The accessory's first /accessories of this capture differs from the last one of the previous "
            + "capture of the same accessory (same device ID and long-term key), in accessories, services or "
            + "characteristics, yet its first advertisement carries the c# it had then. Controllers that paired "
            + "before keep the old database.",
        reference: "PROTOCOL.md §7 (c#: bumped whenever the attribute database changes)")

    public static let configurationNumberChangedWithoutChange = AuditRule(
        .discovery, "config-number-changed-without-change", severity: .info,
        because: "controllers only read the database again; HAP also asks for a new c# after a firmware update, "
            + "whether or not the database changed",
        party: .accessory,
        title: "c# changed since the previous capture for the same database",
        explanation: "The accessory's first /accessories of this capture has the same accessories, services and "
            + "characteristics as the last one of the previous capture of the same accessory, yet it advertises "
            + "another c# (bumped, or reset). Controllers read the database again for nothing; a reset c# can also "
            + "land on a number a controller cached for another database.",
        reference: "PROTOCOL.md §7 (c#: bumped when the database changes; 1–65535, wraps to 1)")

    public static let txtMalformed = AuditRule(
        .discovery, "txt-malformed", severity: .low,
        because: "controllers may fail to list, identify or pair the accessory",
        party: .accessory,
        title: "Bonjour TXT record malformed",
        explanation: "The accessory's _hap._tcp TXT record lacks a key HAP requires or has a malformed value: id not "
            + "of the form XX:XX:XX:XX:XX:XX, pv not major.minor, ci not a category, c# out of range, a value that "
            + "is not a decimal number. Controllers identify, list and pair accessories by these keys.",
        reference: "PROTOCOL.md §7 (TXT keys c#, ff, id, md, pv, s#, sf, ci, sh)")

    public static let setupHashMismatch = AuditRule(
        .discovery, "setup-hash-mismatch", severity: .low,
        because: "setup by QR code or NFC fails; nothing is exposed",
        party: .accessory,
        title: "Setup hash does not match the setup ID",
        explanation: "The advertised sh is not the first four bytes of SHA-512(setup ID ‖ device ID) for the setup ID "
            + "given with --setup-id. A controller that scanned the accessory's setup payload looks for that hash "
            + "and does not find the accessory.",
        reference: "PROTOCOL.md §7 (setup hash)")

    public static let globalStateNumberNotBumped = AuditRule(
        .discovery, "gsn-not-bumped", severity: .low,
        because: "controllers miss the change until they next connect; nothing is exposed",
        party: .accessory,
        title: "HAP-BLE value changed without a new GSN",
        explanation: "A HAP-BLE characteristic that notifies in the disconnected state (properties 0x0100) read "
            + "another value on a new LE connection than the controller last saw on the previous one, while every "
            + "advertisement from before that connection to this one carried the same Global State Number. HAP "
            + "announces such a change with a disconnected event: the accessory increments its GSN once per connected "
            + "or disconnected period and advertises it, and controllers reconnect to read the new value; without it "
            + "they keep the stale one (aiohomekit did not reconnect in captures/ble/ble-gsn-not-bumped).",
        reference: "PROTOCOL.md §10.3 (HomeKitADK HAPBLEAccessoryServer+Advertising.c: the GSN is incremented on the first "
            + "change of a disconnected-notifying characteristic after each connect and each disconnect, wrapping "
            + "65535 to 1; HAP R14 §7.4.6.3 Disconnected Events as quoted there)")

    // MARK: Attribute database

    public static let duplicateAID = AuditRule(
        .database, "duplicate-aid", severity: .medium,
        because: "reads and writes can reach the wrong accessory",
        party: .accessory,
        title: "Two accessories share an aid",
        explanation: "Two accessories in /accessories have the same aid. Controllers address characteristics by "
            + "aid.iid, so reads, writes and events of one reach the other: a write meant for a switch can move a lock.",
        reference: "PROTOCOL.md §6 (aid: the accessory's instance id; 1 = the bridge, bridged accessories ≠ 1)")

    public static let duplicateIID = AuditRule(
        .database, "duplicate-iid", severity: .medium,
        because: "writes can reach the wrong characteristic; low when only a service and a characteristic clash, "
            + "a rule fewer sources confirm",
        party: .accessory,
        title: "Two services or characteristics share an iid",
        explanation: "Within one accessory, iids are unique across services and characteristics. A repeated iid makes "
            + "aid.iid ambiguous: the element listed second cannot be read or written, and writes meant for it "
            + "change the first.",
        reference: "PROTOCOL.md §6 (iid: unique within the accessory across services and characteristics), §9")

    public static let invalidJSON = AuditRule(
        .database, "invalid-json", severity: .medium,
        because: "controllers cannot use the accessory",
        party: .accessory,
        title: "/accessories body is not valid JSON",
        explanation: "The attribute database is not valid JSON; the finding names the first byte at fault. Controllers "
            + "cannot read the accessory at all, and lenient parsers may read something the accessory did not mean.",
        reference: "PROTOCOL.md §6 and §5.2 (application/hap+json attribute database); RFC 8259")

    public static let missingAccessoryInformation = AuditRule(
        .database, "missing-accessory-information", severity: .medium,
        because: "medium: the Home app refuses an accessory without the service, without one of its characteristics "
            + "or with a serial number shorter than 2; low for a Name, Manufacturer or Model outside ADK's lengths, "
            + "which ADK refuses to serve but the Home app accepts (HAP-python's default accessories have Model \"\")",
        party: .accessory,
        title: "Accessory Information service missing or incomplete",
        explanation: "Every accessory needs exactly one Accessory Information service (3E) with Identify, Manufacturer, "
            + "Model, Name, Serial Number and Firmware Revision, within ADK's length limits. HomeKit refuses "
            + "accessories without it, and controllers identify accessories by it.",
        reference: "PROTOCOL.md §6 (Accessory Information service: exactly one per accessory, its required "
            + "characteristics and lengths), §8 #19")

    public static let valueOutOfRange = AuditRule(
        .database, "value-out-of-range", severity: .low,
        because: "a wrong state is shown or refused; nothing is exposed",
        party: .accessory,
        title: "Characteristic value breaks its metadata",
        explanation: "A characteristic value in /accessories, a read or an event lies outside minValue and maxValue, is "
            + "not a whole number of minStep, is not among its valid-values, or has the wrong JSON kind for its "
            + "format. Controllers reject or clamp such values and may show a wrong state.",
        reference: "PROTOCOL.md §6 (format, minValue, maxValue, minStep, valid-values, maxLen), §8 #7 and #18")

    public static let unknownAppleType = AuditRule(
        .database, "unknown-apple-type", severity: .low,
        because: "controllers ignore the element or misread it once Apple assigns the type",
        party: .accessory,
        title: "Undefined type in Apple's UUID range",
        explanation: "A service or characteristic type uses Apple's base UUID (0000XXXX-0000-1000-8000-0026BB765291) "
            + "but no HAP source defines it. Only Apple assigns types in that range; vendors use UUIDs of their own.",
        reference: "PROTOCOL.md §6 (UUIDs: Apple types are 0000XXXX-0000-1000-8000-0026BB765291)")

    public static let malformedEntry = AuditRule(
        .database, "malformed-entry", severity: .low,
        because: "the element, and the feature it carries, disappears from controllers",
        party: .accessory,
        title: "Attribute database element malformed",
        explanation: "An accessory, service or characteristic in /accessories lacks a field HAP requires, has a field "
            + "of the wrong type, or uses a perm, format or unit HAP does not define. Controllers skip such elements.",
        reference: "PROTOCOL.md §6 (the keys and values of the attribute database)")

    public static let writeRejected = AuditRule(
        .database, "write-rejected", severity: .info,
        because: "rejecting a write breaks no rule; the statuses are evidence for the controller's or the "
            + "accessory's authors. The party is the controller for statuses that say its request was wrong "
            + "(read-only, write-only, no notifications, no such resource, invalid value, insufficient privileges or "
            + "authorization) and the accessory for those that say it failed (communication, busy, out of "
            + "resources, timeout)",
        party: .controller,
        title: "Characteristic writes rejected",
        explanation: "The accessory rejected characteristic writes with a HAP status; the evidence groups them by "
            + "status. A rejection is the accessory enforcing its rules: the finding shows which writes failed and "
            + "why, e.g. a controller that ignores perms or ranges, or an accessory that refuses what it should take.",
        reference: "PROTOCOL.md §5.1 (PUT /characteristics: 204, or 207 with a status per entry), §5.5 (HAP status codes)")

    public static let missingRequiredCharacteristic = AuditRule(
        .database, "missing-required-characteristic", severity: .medium,
        because: "the Home app refuses a bridge whose services break HAP's service definitions (out of compliance)",
        party: .accessory,
        title: "Service lacks a characteristic HAP requires",
        explanation: "A service of a type the catalogue defines lacks one of its required characteristics (every source "
            + "requires it). Controllers cannot operate the service, and the Home app rejects the accessory as out of "
            + "compliance. The Accessory Information service has its own rule.",
        reference: "PROTOCOL.md §6 (services and their required characteristics: ADK HAPServiceTypes.h, HAP-NodeJS, "
            + "HAP-python, aiohomekit; scripts/catalog/data/services.tsv); HAP-NodeJS#65, homebridge/homebridge#3952")

    public static let unexpectedCharacteristic = AuditRule(
        .database, "unexpected-characteristic", severity: .low,
        because: "controllers ignore a characteristic a service does not define",
        party: .accessory,
        title: "Characteristic not defined for its service",
        explanation: "An Apple characteristic sits in an Apple service that neither requires nor allows it in any source "
            + "(Service Signature excepted). Controllers ignore it, so the feature it carries does not appear.",
        reference: "PROTOCOL.md §6 (required and optional characteristics per service; "
            + "scripts/catalog/data/services.tsv; ADK HAP.h: Service Signature on any service)")

    public static let invalidName = AuditRule(
        .database, "invalid-name", severity: .low,
        because: "the Home app warns about such names and may refuse the accessory; HAP-NodeJS only warns",
        party: .accessory,
        title: "Name or ConfiguredName with characters HomeKit does not accept",
        explanation: "A Name or ConfiguredName does not start and end with a letter or digit, or holds a character "
            + "outside letters, digits, spaces and ' ’ & ! . _ : ; ( ) / , - (an emoji, #, *). Apple's HomeKit "
            + "guidelines allow letters, digits, spaces and apostrophes; the Home app rejects other names when a user "
            + "types them and may refuse the accessory.",
        reference: "PROTOCOL.md §6 (Name); Apple HomeKit Human Interface Guidelines as HAP-NodeJS checks them "
            + "(HAP-NodeJS#1009, widened by #1119 for what the Home app accepts, #1116)")

    public static let invalidPermissions = AuditRule(
        .database, "invalid-perms", severity: .medium,
        because: "medium when perms is missing or empty: controllers cannot tell how to use the characteristic; low for "
            + "an undefined string next to valid ones, which controllers skip",
        party: .accessory,
        title: "Characteristic permissions missing or undefined",
        explanation: "A characteristic has no perms, an empty perms list, or a perm HAP does not define (HAP has pr, pw, "
            + "ev, aa, tw, wr, hd). Controllers read, write and subscribe by perms: without them the characteristic "
            + "cannot be used.",
        reference: "PROTOCOL.md §6 (perms: pr, pw, ev, aa, tw, wr, hd; ADK HAPIPAccessory.c writes exactly these)")

    public static let duplicateName = AuditRule(
        .database, "duplicate-name", severity: .low,
        because: "controllers show one of the names; nothing is exposed",
        party: .accessory,
        title: "Service with more than one Name",
        explanation: "A service lists the Name characteristic (23) more than once. A service has one name (ADK: a "
            + "service's name is one Name characteristic); controllers show one of them and drop the others.",
        reference: "PROTOCOL.md §6 (Name; ADK HAP.h HAPService.name)")

    public static let formatMismatch = AuditRule(
        .database, "format-mismatch", severity: .low,
        because: "controllers decode values by their own definition of the type; the sources disagree for a few types, "
            + "so only a format none of them gives is reported",
        party: .accessory,
        title: "Characteristic format contradicts its type",
        explanation: "An Apple characteristic declares a format that no source gives for its type (a Brightness as "
            + "float). Controllers that decode the value by the type's definition misread it or reject the write.",
        reference: "PROTOCOL.md §6 (format), §8 #18 (metadata mismatches); scripts/catalog/data/characteristics.tsv "
            + "(format and source_disagreements)")

    public static let unitMismatch = AuditRule(
        .database, "unit-mismatch", severity: .low,
        because: "a wrong unit is shown; nothing is exposed",
        party: .accessory,
        title: "Characteristic unit contradicts its type",
        explanation: "An Apple characteristic declares a unit no source gives for its type (a temperature in "
            + "percentage). Controllers show or convert the value wrongly.",
        reference: "PROTOCOL.md §6 (unit), §8 #18; scripts/catalog/data/characteristics.tsv (unit and "
            + "source_disagreements)")

    public static let tooManyAccessories = AuditRule(
        .database, "too-many-accessories", severity: .medium,
        because: "HAP forbids it and ADK refuses to start such a bridge; controllers need not accept it",
        party: .accessory,
        title: "Bridge with more than 150 accessories",
        explanation: "The database lists more than 150 accessory objects (the bridge and 149 bridged ones). HAP forbids "
            + "more; ADK refuses to start a bridge with more, and controllers are not bound to accept them.",
        reference: "PROTOCOL.md §6; HAP specification: \"a bridge must not expose more than 150 HAP accessory "
            + "objects\" (quoted in brutella/hc#206); ADK HAP.h kHAPAccessoryServerMaxBridgedAccessories (149)")

    public static let tooManyServices = AuditRule(
        .database, "too-many-services", severity: .low,
        because: "a limit HAP-NodeJS enforces; no controller behaviour is documented",
        party: .accessory,
        title: "Accessory with more than 100 services",
        explanation: "An accessory lists more than 100 services. HAP-NodeJS refuses to add a 101st (\"Cannot add more "
            + "than 100 services to a single accessory\"), taking it for HAP's limit.",
        reference: "PROTOCOL.md §6; HAP-NodeJS src/lib/Accessory.ts MAX_SERVICES = 100")

    public static let tooManyCharacteristics = AuditRule(
        .database, "too-many-characteristics", severity: .low,
        because: "a limit HAP-NodeJS enforces; no controller behaviour is documented",
        party: .accessory,
        title: "Service with more than 100 characteristics",
        explanation: "A service lists more than 100 characteristics. HAP-NodeJS refuses to add a 101st (\"HAP spec allows "
            + "a maximum of 100 characteristics per service\").",
        reference: "PROTOCOL.md §6; HAP-NodeJS src/lib/Service.ts MAX_CHARACTERISTICS = 100")

    public static let databaseTooLarge = AuditRule(
        .database, "database-too-large", severity: .low,
        because: "no source documents the size controllers read: the threshold is hapscope's assumption",
        party: .accessory,
        title: "/accessories body larger than controllers read",
        explanation: "The /accessories body is larger than AuditThresholds.maximumDatabaseBytes (128 KiB by default). No "
            + "source documents the largest body a controller reads; real databases stay far below (the largest of the "
            + "real-device dumps, an ecobee3 lite with 13 accessories, is 98 KB as dumped), and an accessory this large "
            + "risks controllers that give up or time out.",
        reference: "PROTOCOL.md §6; docs/audit-rules.md (database-too-large: why 128 KiB)")

    public static let iidRenumbered = AuditRule(
        .database, "iid-renumbered", severity: .medium,
        because: "controllers address characteristics by aid.iid: automations, scenes and names break",
        party: .accessory,
        title: "Instance ids changed for the same accessory",
        explanation: "A service or characteristic (the same type at the same place in the same accessory) has another "
            + "iid than in the previous capture of the same accessory. Controllers keep the home's automations, scenes "
            + "and names by aid.iid: after the change they point at nothing, or at another characteristic.",
        reference: "PROTOCOL.md §6 (iid); ADK HAP.h: instance ids \"must not change while the accessory is paired, "
            + "including over firmware updates\"")

    public static let malformedCharacteristicsBody = AuditRule(
        .database, "malformed-characteristics-body", severity: .low,
        because: "only controllers that ask for perms or ev in a read (aiohomekit and homekit_python can) get a body "
            + "they cannot read; the rest of the session goes on",
        party: .accessory,
        title: "/characteristics body is not valid JSON",
        explanation: "A /characteristics body the accessory sent (a read response, a write response or an EVENT) is not "
            + "valid JSON; the finding names the byte where it breaks and the request that asked for it. ADK writes "
            + "such read responses when a read asks for perms or ev: each characteristic object is closed after "
            + "\"value\" and the perms and ev members follow outside it.",
        reference: "PROTOCOL.md §5.1 (GET /characteristics with meta, perms, type, ev), §5.2; RFC 8259; ADK "
            + "HAPIPAccessoryProtocol.c HAPIPAccessoryProtocolGetCharacteristicReadResponseBytes")
}
