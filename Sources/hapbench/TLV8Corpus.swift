import WireParsing

/// The TLV8 benchmark corpus: four well-formed HAP pairing bodies, byte for byte the files of
/// the project's shared `hap/tlv-corpus/` (generated there with a fixed seed: random key
/// material, real structure). The Python decoders that `scripts/bench-peers.sh` measures read
/// the same bytes, written out by `hapbench export-corpus`.
struct TLV8CorpusMessage {
    /// The corpus file name without its extension, e.g. `pair_setup_m2`.
    let name: String
    let bytes: [UInt8]

    static let all: [TLV8CorpusMessage] = [pairSetupM2, pairSetupM3, pairVerifyM2, listPairingsM2]

    /// State 2, Salt, PublicKey in 255 + 129 byte fragments (409 bytes).
    static let pairSetupM2 = TLV8CorpusMessage(name: "pair_setup_m2", hex: """
        0601020210d85b2cfbfe8ddda2e24ce5eca788df2903fffe4773ae4d7ea5937e6e9b600cbe6358b2776dc247b6d5d296
        2bf172bbc562d2e95760d85d1a65996db2009cdb827ae47f6b6705813b865f02318efa67a2b27d3458076b4a31027e6c
        de60f6a012ebf78956acb2db5cd1e67a42fd8b525562cb62ee79bfefa17d6d1b83bceb5b72b8cdf48e3daed10c74f5d4
        f551adbebe06a66694c7ba685a870eb16c61c6c2b61dacbb7e37d5438db86df839568ac0023bb70b08a42dedb5f2a2a7
        b4357248e58bf363ef63b68be717fa2ce241a57566609e11cb9c1b5e7633b54ad8a6192aee436c556e6e7cce0da753b2
        c1ab2b4361efc6b801ccfeaf508588a569b47058f97e7553e0252cd7129904952a5fe00eba0903818702ab7c696ea805
        db527c763fa12b8b0d585a097e653bac930c9b64aab84e49d3fdaca080ee5b8090ebb108b2bfd2b463c9e929612762f7
        9c9d609b7564c7cba95d8d5c9d77c2cad7d67cb5a8d812584a1f6c94b62e1aae3369f16b6691bbbbb2686bacc5a02cd3
        2d8fb115535988c4bae881bffb5c7a903af2dc8aca0784fde8
        """)

    /// State 3, PublicKey in 255 + 129 byte fragments, Proof (457 bytes).
    static let pairSetupM3 = TLV8CorpusMessage(name: "pair_setup_m3", hex: """
        06010303ff91f539bfef5046b307f635da921e7074cd50af9a207e736c8c6e1196d13e85517e11814c8047320c653621
        627d8b76a11492160585cfd5df6ecc6864a4ef711663035fa5594b829877c1c51e34248acd286d1776619bf9881d284c
        6cf71b230418d565c056926617bcd75619ee7904f51cb7ff31021324b0132461dfc1a7d0cedd8c685ae8953e4f17cbdd
        5a870990fedbb244c03b3aac95929f09be32459b6afcda4c800c50842f766788adc3a55b193a445a2aa5bae34d85613e
        7f3ca74a425f53953284f0cc93b1ac9a81996948811621adb0c87c8c210d085190e12227fef0f517ea4bc0dc32890e98
        510c2f2acb40ea2cf2b40b6363ce5a926933e6340381b98713d76bd852bd081ba0113f17af221940c2ef3c50d4065850
        bff93fddad011d54db59e15e27eba87a96ad0c56ac3aad6d1b99bdb6d4cbf612e5107487ddaf1476b6a2a077e73d0b91
        0e00cbfef414389b9a89776d9922e817a1197fe6b733ee72153537266aa4e62a8a1b0960f022a0fcbce075bdc419e167
        31e2149d822542044071eaf5fc402361ba163adf60880b7be37e6282c15ca70cf52d5cbce0efee2ca984fd3d5acfd9d2
        efc30fb9959e30be2ae8e8c938697a5df489f8a15b5c6acee5
        """)

    /// State 2, PublicKey, EncryptedData (140 bytes).
    static let pairVerifyM2 = TLV8CorpusMessage(name: "pair_verify_m2", hex: """
        0601020320f09cab949e0e240a9884b4f2f6d69bcf8a6cc6edfe4d8c21c051e2b21559f57a05650284e9ad337b6805b0
        48682989b8d8b76ef864bd455674d696570c96116fe284c93dc810ea4b43de3cdd67ef4d66c878443a038f6db60a384c
        6d6aa7fd89fdf03e15654ee4b5524538ad9a838a8d04ee064c33b88e6daa96da7f9072ba02053f01507bb20c
        """)

    /// State 2 and five pairings (Identifier, PublicKey, Permissions) between separators (386 bytes).
    static let listPairingsM2 = TLV8CorpusMessage(name: "list_pairings_m2", hex: """
        060102012444423034344131312d393636342d343036432d394430452d3142414338343944353637420320efa5656585
        9b81ebb98abaffa184e23fae35fd041bdfffe1d25adbb3d1715e170b0101ff00012437413441334233362d383944382d
        343334302d394430362d423345444644423533463731032045866aac98067d50843657d2d0044d3749644fff5d881495
        be2b676bba3c0c370b0100ff00012444303438344245392d373137432d343336322d384445462d324533443944444636
        39394603204f37dbe20300a9015e969c2ee8e2f48425a95a71249dc650fbb9949cef68afbc0b0100ff00012434353038
        323836422d363330462d343237392d413630372d3237413836313230414446420320ceb3cf25626e0f7bf72cd35b1a0c
        c9171c718fe5ff1d4d6fa381e14b36e672470b0100ff00012444314630314430372d393433452d344132432d39323044
        2d3733433745304130383632410320ff3dc49d974810196b9d0402d71eeec5210a50649e059eade6c8da24def6df7b0b
        0100
        """)

    private init(name: String, hex: String) {
        self.name = name
        bytes = Hex.decode(hex.filter { !$0.isWhitespace }) ?? []
    }
}
