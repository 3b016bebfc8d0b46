// Test vectors used across the HAPCrypto tests, copied here so the package tests without
// the shared reference material it was taken from.
//
// Sources:
// - `HAPVectors`: hapscope's HAP fact sheet, data/test-vectors.md §2–§4 (computed for the
//   fact sheet with Python `cryptography` and `hashlib`; the SRP values cross-checked against
//   aiohomekit and HAP-python, both Apache-2.0), and §1 setup hashes from
//   apple/HomeKitADK `Tests/HAPAccessorySetupGetSetupHashTest.c` (Apache-2.0).
// - `GeneratedVectors`: computed for these tests with Python `cryptography` 48.0.0 and
//   `hashlib`, independently of this module: multi-block HKDF, Pair Setup derivations,
//   pairing signatures from fixed seeds, sealed pairing sub-TLVs, the original-construction
//   ChaCha20-Poly1305 tag, and SRP proofs under non-default padding conventions.
// - RFC 8439 §2.8.2, RFC 7748 §6.1, RFC 8032 §7.1, RFC 4231 §4.3/§4.7, FIPS 180-2 "abc":
//   IETF/NIST test vectors (RFC code components, Simplified BSD License).

enum HAPVectors {
    // §2: Pair Verify, session keys and frames. RFC 7748 §6.1 keys: "Alice" plays the
    // controller, "Bob" the accessory.
    static let controllerSecretKey = "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"
    static let controllerPublicKey = "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"
    static let accessorySecretKey = "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb"
    static let accessoryPublicKey = "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f"
    static let sharedSecret = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"
    static let pairVerifyEncryptionKey = "4088b4ce1491e289da3f5462e5faee3d061d2c3f8734cefeb0216982a7eb32a7"
    static let accessoryToControllerKey = "522fa526a28d246e23ad85295ab1be5f06d279cf67da2e1263e34dab427fe463"
    static let controllerToAccessoryKey = "55af022545eaa2dc8d998d047e055ec37025a759d96aef78d1523a832844b011"
    static let pairVerifyM2Nonce = "0000000050562d4d73673032"

    /// Frame 1: controller → accessory, counter 0.
    static let frame1Plaintext = "GET /accessories HTTP/1.1\r\nHost: test\r\n\r\n"
    static let frame1 = "2900b20f3e08d48082d22fe36f80850cb18af32a7c932a31eee7e102192e0d866a818289535d98cfd054052b2c57fa2d3619c1377a85422880dab3"
    /// Frames 2 and 3: accessory → controller, counters 0 and 1, same plaintext.
    static let frame2And3Plaintext = "HTTP/1.1 204 No Content\r\n\r\n"
    static let frame2 = "1b00dc2e936db6a7a03d157ce7168cc423b9ca0accd0991d80d1620e7f00d10e17864020a6d6c391b163032edf"
    static let frame3 = "1b00639d935160500cfa9ea6da0cf61f75a8d40240c186f95df99c9525e8634fa6913c6363996963f710ea98b1"

    // §3: SRP without leading zeros.
    static let srpSalt = "beb25379d1a8581eb5a727673a2441ee"
    static let srpA = """
        fab6f5d2615d1e323512e7991cc37443f487da604ca8c9230fcb04e541dce6280b27ca4680b0374f179dc3bdc7553fe6
        2459798c701ad864a91390a28c93b644adbf9c00745b942b79f9012a21b9b78782319d83a1f8362866fbd6f46bfc0ddb
        2e1ab6e4b45a9906b82e37f05d6f97f6a3eb6e182079759c4f6847837b62321ac1b4fa68641fcb4bb98dd697a0c73641
        385f4bab25b793584cc39fc8d48d4bd867a9a3c10f8ea12170268e34fe3bbe6ff89998d60da2f3e4283cbec1393d52af
        724a57230c604e9fbce583d7613e6bffd67596ad121a8707eec46944957033686a155f644d5c5863b48f61bdbf19a53e
        ab6dad0a186b8c152e5f5d8cad4b0ef8aa4ea5008834c3cd342e5e0f167ad04592cd8bd279639398ef9e114dfaaab919
        e14e850989224ddd98576d79385d2210902e9f9b1f2d86cfa47ee244635465f71058421a0184be51dd10cc9d079e6f16
        04e7aa9b7cf7883c7d4ce12b06ebe16081e23f27a231d18432d7d1bb55c28ae21ffcf005f57528d15a88881bb3bbb7fe
        """
    static let srpB = """
        0d948f8add88658bfb2f58b2a2580674aba5e03685d39a8a433a7414c83c7d3ab7626ed9633fb12f8424d0826c493e35
        08273637f0d1c9831554a3cab1e6ef3ef09fa3caa039d2151deb113e97cb59150623ad0b1f9cea013aa1228afe715e8e
        90f27003f4a7aca1807efad4e879a7d5269e65c12d1c60b79a2106904847026cd19a62dd7d43c3b56e58f097bebc5621
        453b6098130157e8a9b4b0e1be0570215eda49ad4863c6d30181d4211ee8227844147786915026b83c87af3e462fff1e
        9eb53db966780886011122ee9f3e7706e8898461fa60df894fbfa718116583318ae8e219592a8956b0b66060d087b38f
        a7146eaf5718d1917749d5d49785006ca75e97e413f8788e5788df27775cfba9f2a893b474bf725b017a6afbaf19c918
        0de934b5ba320a24978913b51e78b3215968efeafd14e269c70e1d3277c37ff662eedf58a8858e9dd40fc9f06ee8b7f9
        1623970fa28c6fe6fdd693d9913783efcd4aa66188bd8c321076165d9225ca650e5950a6a50b3165b32fa4a85e30a6b0
        """
    static let srpK = """
        c85cbc9a1b876a5a6c43397c3441a99750fbdb1db9ac794cb00ec8fdd2e2dec2d07f4830250d67d63f9f7d3dfca1fa9f
        b9ee86316c5a7e9fa39ff6a8cbc98388
        """
    static let srpM1 = """
        f67168e094bcabc208cdaa79628c82ccb1ecebb92eaa7fc2d5e56eff80dfb51cdf347c6680502c2b3b34617f0f975a6b
        d7e3757918e3b0a21624e244bc6c0f2d
        """
    static let srpM2 = """
        674bda7a714c0fead16487feec76086be293e3483154a52110675e3f2696d87044ceff24be5297285ec16cea9eddee9d
        98084248a68716bc00a3603b267a1541
        """
    static let srpPrimeHashXorGeneratorHash = """
        b3d63ef6aafb2e9796dae006fe60f20e5326fe1e1c52a5021eb21747ca33dfea8ff203bd45a2544395d73d19899c174a
        683c9e783296dd1693ebc71cf5a53da3
        """

    // §3 intermediate values that need only hashing, and the premaster secrets S of §3 and §4.
    static let srpX = """
        22978133aa18fe33b75857a64dca1f91cc2b36a8e4042fd943eac0e2d49251797bdcde64d736ab95be9c62bcebe9872f
        aa0dc9af4cd13a025f5cfed92b0680b4
        """
    static let srpMultiplier = """
        a9c2e2559bf0ebb53f0cbbf62282906bede7f2182f00678211fbd5bde5b285033a4993503b87397f9be5ec02080fedbc
        0835587ad039060879b8621e8c3659e0
        """
    static let srpU = """
        8642d17647f8f523425cd53f30dfd10df72afb9ef62ce15fbf263f32983c0f3ab97a44bfc2ed966a944f7a7d70e2251a
        b9853a1f39f801df2c7ff972aa7fe666
        """
    static let srpS = """
        01f4b9303098e8ca9e13168f90040ef056a25ad620ee4d7a70ee66c0c4ea368ba3c8b2faf1caa025007b547279f7ee13
        8418f63352c67494a3865e851eba4d5006319f148037ccac6a7803238ddff04568b93652083f67e82d56725244b5f33f
        6112fb6b06e84c806eb06e06f56f209db1dafd8c5d6a0a2b0bde32a6790557ecf5254c413f759dd62bcd99a7de55d64e
        2f8b04862daa508762e888e77c10d36d21730e221d50dbe4f8e1577748fef6d77b81b63100c5f8770c0c4a3679c0022b
        141fcf7a16f36cf15eb4fc9fa300a7e6cb67efd2f95b8a939cd749397b533825b612a41e927a2fe2ea915ea89abb8db7
        dc4e00e148b8d2c2398ede66f2ad74bfe57b30d0646147937eb3950bdd753747037344370c03233e12dd4a1c13bbad8d
        1af13b8fe9efa9587d73129f5c679cc4f5d55824c832a0dfee31e19f9564828a4a606c948fd7424ddf808de96cc43579
        2b89f05b6c6ce3d5d32b853d522a56b9d885a757c36bafc44274de55780f6b7160874c5af4445087f44f42e484c3fd50
        """
    static let srpLeadingZeroS = """
        0025b2a41adb5c8fa8b53896fda4c84cbab2bad96e1a6a454da84a3fc489337c0a41551b86ff7f53714e78ba9ff16392
        c518ad8cd90aa2db618abee816880c9336b9939412bc195dd4e9b09f6390b64f983f9429bbed3e69de3651d48a6eaecd
        0ea7b5ccb92c784aee7dc590e88b8226998b7697b7aacf991a8c44dcd92e5daf43323d8eb2b26d1f56f45d9bfb9d9b1c
        d6c2583951b73d193f88391762d9378f633e15ac6fe9d75cdbf9d477656315a0a0a2b32a345725ecf8866f2be6e08f13
        e0735b3538352f1a18c773ea3b02e2f0bd6f8dd038e9f8a9830fa332922667a77cc31c24895f80abcfdc730241c7c286
        c444d2d902a3a942781169a6a7f06451243bfb19d8078cf78eb00480307d31a8ca1f9315a5f70ef4b6f2bce99651665e
        38cdddf8b3cf5867e99579d7976a1d7bbac89ace50169586c4dae0d2704b788a5ac1ec4fc47e08e91a3832d5496aa752
        55fc7bec70d23aa6a64693d92f81bdce58732e99ebeefcde5ec0ccc3eae1b074805a5cb50fa8e8f7721f76eb46923488
        """

    // §4: S with a leading zero byte; same salt and B as §3.
    static let srpLeadingZeroA = """
        3dc872794108b5a491240bd1113511722465de881928b305b61bcd23dfc22ebf2ae39b3e86d7ac1efe82bdd88fe02628
        5b7ccd7ba657f92a98a85e885bab38f6b32348f340f932220d683a6ce57947330daed2ee6c14b79732c3d811d0519de4
        5ac38ef8363f6b9f0c04a1767b9626c61f2c51853cd063cff33c91899eea47f282159ad7b5cfb75c0426c9ae61fcb00a
        fd8a60246b21df92cdcff91e8fe6727eb10aca50b52886cac2227d28fe50fa406b197cbee05abc1b7b777bed4e19aaf7
        ed930d54e87e07366eaaf3362a4db71c4debffcb7298fe0ea59d8bfd407437d61ddd709161a6b1f743513c52772f61e5
        a4a7716b8817db4b6a618ce9e766f7f98d1ac51dfbfb8459bf2c3dff96123784ed72368de0b91201d4fee7a4abdff9e2
        b5b2ccd6626c35848dfeb83a12fdc17099153a72e1d4cbbd27fc6731cf02b799c6cf6463070c83d7cc82aaf1b7d6a45a
        b4ea1adc063ab9587b4b52033d6e2cce5f47e8f7ca951b435a76622e154e5f5acfd54fd33218910052132d28d57a3f50
        """
    static let srpKFromStrippedS = """
        0cdb339598646e18e9aa53943920f041c7f234c7a0b8ca74ef0564249e7d46a56f610cf17d7d68b9439a597ea4d822d3
        d2906acbea7db1c1f725bd0427641f1d
        """
    static let srpKFromPaddedS = """
        b3f59197ed6e225b8f1c9acc5605cb603b51ba35dff2e5d7db68969a893af729cac9fa246ecfea671f34fc889a385704
        8b42986a7eebc5262e892037ec4ef20e
        """
    static let srpM1FromStrippedS = """
        e3ced8f1517dbfa12e4fd277b2d417675b7c961161c3ea4c2d1196da85c18c00589be419978deec35e1e69c2035d0a82
        73207c3006387c95c1155d829d98ce6c
        """
    static let srpM1FromPaddedS = """
        93d03a39bfccba8d0a7a743e1e93d5660b896aaea92a7e3ea34a2a084561da472e9e2625d91f5b0bbaa4bea1c6f51bb6
        b0207b4cbb2814c16261068cea12c881
        """
}

enum GeneratedVectors {
    /// HKDF-SHA-512(shared secret, "Control-Salt", "Control-Read-Encryption-Key"), 100 bytes:
    /// two whole blocks and a partial one.
    static let hkdf100Bytes = """
        522fa526a28d246e23ad85295ab1be5f06d279cf67da2e1263e34dab427fe46379c563bc87f054a63c1fb27c34b0fa4b
        f8de5afdb87aa20c7971b8f115c72fe5aaa7cace82ab02828b3a164068cd2c95127481f530e15805a61214a5f50d483f
        ae9bf3ef
        """
    /// HKDF-SHA-512(shared secret, no salt, empty info), 64 bytes.
    static let hkdfWithoutSalt = """
        d9fbf186ac2aa89816a6a60295924ddd5735edfb098cea7a9d0f3ecc67e7b713065f0a53b6efde6f1fcb6826d7a8789d
        4897aed45d75df7e83ccb6afb97629b2
        """

    /// Pair Setup derivations from the §3 K.
    static let pairSetupEncryptionKey = "b266f6b0fd73c342e36f3e0ae99292e6825784973e7b492a21ffaa0e0f0676d9"
    static let controllerSignX = "88dbc1b88c0643826d72cae5d45619205e1c3d44752298d863fb1a2953744530"
    static let accessorySignX = "fc61156005098b98d5aaf4e67527297fa5ce5af58d8682b4eeac072062461d94"
    static let transientAccessoryToControllerKey = "fd91438103dc4bf74b63dd2a18fce79fd430f0d95c2703f6f0cc1c8e642304f1"
    static let transientControllerToAccessoryKey = "4cf62143d13a91599c2e2fccb1dfd5a0e9e61662eb84287309b86e5c735a31be"
    /// The §3 K with its first two bytes zeroed, and the Pair Setup encryption key from it
    /// used whole and with the leading zeros stripped.
    static let leadingZeroK = "0000bc9a1b876a5a6c43397c3441a99750fbdb1db9ac794cb00ec8fdd2e2dec2d07f4830250d67d63f9f7d3dfca1fa9fb9ee86316c5a7e9fa39ff6a8cbc98388"
    static let leadingZeroKFullEncryptionKey = "f7300671fd8c3cfa67f7f46ecb8735c27713fefd124d6495a9c341421e901f62"
    static let leadingZeroKStrippedEncryptionKey = "d7ca260f80217dfb7e06bc3685ec6027075ae72f8969d56ee1be2fc7d8d25d7b"

    /// Long-term keys from fixed seeds: accessory 0x20…0x3f, controller 0x40…0x5f.
    static let accessorySeed = "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
    static let accessoryLongTermPublicKey = "29acbae141bccaf0b22e1a94d34d0bc7361e526d0bfe12c89794bc9322966dd7"
    static let controllerSeed = "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
    static let controllerLongTermPublicKey = "2543b92ff1095511476adc8369db6ddc933665a11978dda1404ee1066ca9559d"
    static let accessoryPairingID = "E1:91:1A:70:85:AA"
    static let controllerPairingID = "E3A2B7C4-5D6E-4F70-8192-A3B4C5D6E7F8"

    /// Signatures over the §2 curve keys (Pair Verify) and the §3 K's X values (Pair Setup).
    static let pairVerifyM2Signature = "db9a70c2cff3ee067d2d6a8bcdf0daf99e1be143270c2a4913cd24b6913f56842d2a23c487df3e656bd5d4c6c1a02b9ea930b6201da0886c15d66394671dab0d"
    static let pairVerifyM3Signature = "4d2c5cb6211416a3fc0d15b1a2627a45d18fb705d05f0d15b7d83a65829ab88acdd202ea690f88408e09bc91ca290cc137f77f7ca4cfd052d32cc8f0df275605"
    static let pairSetupM5Signature = "33e51899aaf3a392d01d660ef47dd159811b8459475d9cd8edcc8bb2ae0b815bc9e93a93d80c2aa944992301de1c0c0194c08aa502fb0b315d874b52bf9d3009"
    static let pairSetupM6Signature = "bcc1fa56b98f89abfd58ebf1fc2294fdb2807bdf18aa4e016a91b2f6f56cdd0a5ab3eadc5f1d074b41abf47b21f0e2da80e58929c89aba64a61209517a3e2e03"

    /// Pair Verify M2 sub-TLV {Identifier, Signature} and its EncryptedData under the §2 key.
    static let pairVerifyM2SubTLV = "011145313a39313a31413a37303a38353a41410a40db9a70c2cff3ee067d2d6a8bcdf0daf99e1be143270c2a4913cd24b6913f56842d2a23c487df3e656bd5d4c6c1a02b9ea930b6201da0886c15d66394671dab0d"
    static let pairVerifyM2EncryptedData = "56e5d527311e9f78ca42948b4bb66d75c00a8cdcb5830b9eb6fab3c3cbcc9eea4ad4ac841bfe1d783a632985c583e1a17c3389edf611e92d939d787586d353340d6ae4bc371506e0291fc5972d846396c3c19290f3d878bbf9a93ab4014b53516416f3f127"
    /// Pair Setup M5 sub-TLV {Identifier, PublicKey, Signature} and its EncryptedData under
    /// the Pair Setup encryption key.
    static let pairSetupM5SubTLV = "012445334132423743342d354436452d344637302d383139322d41334234433544364537463803202543b92ff1095511476adc8369db6ddc933665a11978dda1404ee1066ca9559d0a4033e51899aaf3a392d01d660ef47dd159811b8459475d9cd8edcc8bb2ae0b815bc9e93a93d80c2aa944992301de1c0c0194c08aa502fb0b315d874b52bf9d3009"
    static let pairSetupM5EncryptedData = "b10477df63054337cc9c37a6492ba98c42dcece5076a0371b71648ee2b9bb04b95c96136378d8149b64a76365794402987629c704fca87100f2061e24ca6ea0b2738a3ad81296936a83d1bf06f103a99f92419c629347ef81dd56c4790d190d7ac2e84b10fe919a05b88f921998511b4a80aa7a8bb29e3fd0f3889ffa7005d88ac5b2a53b511fc2728768b28d55e7d50907e37b568fedeb69343"

    /// The tag frame 1 would carry under the original (64-bit nonce) ChaCha20-Poly1305.
    static let frame1OriginalConstructionTag = "0818ef5a375677c7aa729e9f35ce4575"

    /// SRP controller proofs over the §3 values with one quantity spelled differently.
    /// B sent as its last 383 bytes, hashed padded to 384:
    static let srpM1ShortBPadded = "016f7a49b5f80a98bb2cdf87d3c2895ccfbcae6339202e491d85ad8f908675a51691d1423a83236e43dda7aef9d11abd3c73e88218bca5a267b268bb1e41a42b"
    /// B sent as 00 ‖ its last 383 bytes, hashed minimal:
    static let srpM1ZeroPrefixedBMinimal = "8a558380e09653fe383d88fdb1b09e70b5e2537567fa995c5be9e4522fe79d831f88eef37b0592a334507499739cb761fde74ccc6268b84505f5331f3daa7ae0"
    /// K = `leadingZeroK`, hashed without its leading zeros, and the matching M2:
    static let srpM1LeadingZeroKStripped = "ea3802b9f2800f91030a363145818100ba3a5cbe0083a833374fd5fbd86dfa013702168c9277e8a70eea11ea3a073b750821797286646ece1d07a86da05332c1"
    static let srpM2LeadingZeroKStripped = "f7ea23fdb9f5a627a394c610529b80cc027e0d98c97f7cb6876b8cb10cb0320a46a33e1628adf12a6b0e80caea258b0b0c52a80d9e7eecd7e0bc205c3a2eb71a"
    /// A sent as its last 383 bytes: M1 over A as sent, and M2 over PAD(A) as ADK computes it:
    static let srpM1ShortA = "4f87c0b3437d050657118a88a1e0907efee8a7861532b4f45b27770ce3eae45862bff5c1a173d3830ca8d0c53010de3954050da4491b4d6e27a381eff603221a"
    static let srpM2ShortAPadded = "ab7afcd31e2e0b2afb66d7a4dee51c7dc37425c491a9afc2551bb2ea6a3ca097f05e21327cdee09ba39ba1808175314b2d48532d6499c1c2a3d29ef79a03b42b"
    /// Salt sent as 00 ‖ its last 15 bytes, hashed minimal (homekit_python):
    static let srpM1ZeroPrefixedSaltMinimal = "7e1bd17e5397e11b9aa6385a4a9c7a01e578dbbf2aaf834e4c39fb7b4048625c3ebfc334773c516fb4784d6e0181b26f3059e4a9624130d70be654d0222e0b34"
}
