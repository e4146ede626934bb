/// A libFuzzer target of `FuzzTesting/`: its executable name, the shape its custom mutator
/// uses, and what it checks. `nfctrace fuzz --list` prints this table; a test keeps it in step
/// with `FuzzTesting/Package.swift`.
public struct FuzzTargetInfo: Sendable, Hashable {
    /// The executable's name in FuzzTesting/ (`FuzzNDEFStrict`, `FuzzDissectNFCA` …).
    public let name: String
    /// The shape of the target's inputs: its custom mutator, seeds and dictionary.
    public let shape: FuzzShape
    /// What the target feeds its input to and what it checks, for `nfctrace fuzz --list`.
    public let summary: String
    /// Whether the target also re-encodes what it decoded and traps when the result differs.
    public let roundTrip: Bool

    /// A target entry; `roundTrip` when the target also re-encodes and compares.
    public init(name: String, shape: FuzzShape, summary: String, roundTrip: Bool) {
        self.name = name
        self.shape = shape
        self.summary = summary
        self.roundTrip = roundTrip
    }

    /// Every fuzz target of FuzzTesting/, in the order `nfctrace fuzz --list` and `--all` use.
    public static let all: [FuzzTargetInfo] = [
        .init(name: "FuzzNDEFStrict", shape: .ndef, summary: "NDEF decode, strict; valid messages re-encode to the same records", roundTrip: true),
        .init(name: "FuzzNDEFLenient", shape: .ndef, summary: "NDEF decode, lenient, and the NDEF field tree; decoded records re-encode to themselves", roundTrip: true),
        .init(name: "FuzzType2Memory", shape: .type2, summary: "Type 2 memory decode and description; the CC and a valid NDEF TLV re-encode", roundTrip: true),
        .init(name: "FuzzType3Memory", shape: .type3, summary: "Type 3 AIB and memory decode; the AIB re-encodes byte for byte", roundTrip: true),
        .init(name: "FuzzType5Memory", shape: .type5, summary: "Type 5 memory decode; the CC re-encodes byte for byte", roundTrip: true),
        .init(name: "FuzzFeliCaCodec", shape: .felica, summary: "FeliCa command and response codec; both re-encode byte for byte", roundTrip: true),
        .init(name: "FuzzMIFAREClassicCodec", shape: .mifareClassic, summary: "MIFARE Classic command codec, access bits, value blocks, MAD and NDEF over it; commands, consistent access bits and value blocks re-encode", roundTrip: true),
        .init(name: "FuzzISO7816Codec", shape: .iso7816, summary: "ISO-DEP blocks, command and response APDUs, BER-TLV and the Type 4 CC; blocks, commands and CCs re-encode", roundTrip: true),
        .init(name: "FuzzDESFireEMVCodec", shape: .applicationData, summary: "DESFire GET VERSION and file settings, EMV data object lists and their values, card data in BER-TLV: values found in a chained answer's prefix are the tree's, masked bytes lie in their values", roundTrip: false),
        .init(name: "FuzzISO15693Codec", shape: .iso15693, summary: "ISO 15693 request codec (and answers decoded against it); requests re-encode", roundTrip: true),
        .init(name: "FuzzTextTrace", shape: .textTrace, summary: ".nfctrace reader; frames written back and read again are the same", roundTrip: true),
        .init(name: "FuzzProxmark3Trace", shape: .proxmark3, summary: "Proxmark3 .trace reader (14443-A, FeliCa, 15693)", roundTrip: false),
        .init(name: "FuzzPcap", shape: .pcap, summary: "pcap/pcapng reader (libpcap, the pcapng block reader for mixed link types, pseudo-headers)", roundTrip: false),
        .init(name: "FuzzProxmark3Listing", shape: .proxmark3Listing, summary: "Proxmark3 listing reader; frames listed again and read back are the same", roundTrip: true),
        .init(name: "FuzzNFCLaboratory", shape: .nfcLaboratory, summary: "nfc-laboratory JSON reader and writer; frames written back and read again are the same", roundTrip: true),
        .init(name: "FuzzPcapRecord", shape: .pcapRecord, summary: "ISO 14443 and nfctrace pseudo-header decoders; good records re-encode", roundTrip: true),
        .init(name: "FuzzDissectNFCA", shape: .framesNFCA, summary: "14443-A/Type 2 dissector over a frame sequence, text and JSON renderers", roundTrip: false),
        .init(name: "FuzzDissectFeliCa", shape: .framesFeliCa, summary: "FeliCa dissector over a frame sequence, text and JSON renderers", roundTrip: false),
        .init(name: "FuzzDissectISO15693", shape: .framesISO15693, summary: "ISO 15693 dissector over a frame sequence, text and JSON renderers", roundTrip: false),
        .init(name: "FuzzDissectISODEP", shape: .framesISODEP, summary: "ISO-DEP blocks, chaining, APDUs, BER-TLV, Type 4 files, DESFire, EMV and MIFARE Plus in the 14443-A dissector, text and JSON renderers; card-data masking keeps every frame, in order", roundTrip: false),
        .init(name: "FuzzDumpLoad", shape: .dump, summary: "dump loaders (Flipper, Proxmark3 JSON, binary); a loaded tag saves and loads back", roundTrip: true),
        .init(name: "FuzzEmulateType2", shape: .framesNFCA, summary: "reader frames against each NTAG/Ultralight model; answers decode against their requests", roundTrip: false),
        .init(name: "FuzzEmulateFeliCa", shape: .framesFeliCa, summary: "reader frames against each FeliCa card model; answers decode against their commands", roundTrip: false),
        .init(name: "FuzzEmulateISODEP", shape: .framesISODEP, summary: "reader frames against the Type 4 tag, the DESFire EV1 and the EMV test card; answers decode against their requests", roundTrip: false),
        .init(name: "FuzzEmulateISO15693", shape: .framesISO15693, summary: "reader frames against each ISO 15693 tag model; answers decode against their requests", roundTrip: false),
        .init(name: "FuzzType1", shape: .framesNFCA, summary: "Type 1 (Topaz): reader frames against the Topaz 96, answers decode against their commands; the 14443-A dissector over the same frames", roundTrip: false),
    ]

    /// The executable lists of `FuzzTesting/Package.swift`, generated from `all`: the block from
    /// `let targets = [` to its `]`, and the `coreCodecTargets` line (`coreCodec`: the targets
    /// whose code under test is NFCCore alone). TargetTests fails when the manifest differs and
    /// rewrites it (and adds each missing `Sources/NAME/main.swift`) with NFCTRACE_UPDATE_GOLDEN=1.
    public static func packageManifestLists(coreCodec: [String]) -> String {
        var text = "let targets = [\n"
        for target in all { text += "    \"\(target.name)\",\n" }
        text += "]\n"
        text += "/// Those whose code under test is NFCCore alone: they link no dissector or emulator\n"
        text += "/// (`CoreCodecTargets`; the same root-package test checks this list against it).\n"
        text += "let coreCodecTargets = [" + coreCodec.map { "\"\($0)\"" }.joined(separator: ", ") + "]\n"
        return text
    }

    /// `FuzzTesting/Sources/NAME/main.swift` of a target: the registry gives it its body.
    public static func executableMain(_ name: String, coreCodec: Bool) -> String {
        if coreCodec {
            return "// \(name): the shape from the registry (FuzzTargetInfo.all says what it checks), the body from\n"
                + "// CoreCodecTargets, so that this executable links no dissector or emulator.\n"
                + "import FuzzHarness\nimport NFCFuzzCodecTargets\n\nfuzz(\"\(name)\", bodies: CoreCodecTargets.body)\n"
        }
        return "// \(name): the body and the shape come from the registry (FuzzTargetInfo.all says what it checks).\n"
            + "import FuzzSupport\n\nfuzz(\"\(name)\")\n"
    }

    /// The planted-bug parsers of `scripts/bench-fuzz` (they live only in FuzzTesting/). Not
    /// listed, but `nfctrace fuzz` runs them, so that `scripts/fuzz-smoke` can check a real crash
    /// report from end to end.
    public static let planted: [FuzzTargetInfo] = [
        .init(name: "FuzzPlantedNaive", shape: .type2, summary: "planted bug: naive TLV parser, plain libFuzzer", roundTrip: false),
        .init(name: "FuzzPlantedNaiveStructured", shape: .type2, summary: "planted bug: naive TLV parser, structure-aware", roundTrip: false),
        .init(name: "FuzzPlantedDeep", shape: .type2, summary: "planted bug: Text record inside a valid NDEF TLV, plain libFuzzer", roundTrip: false),
        .init(name: "FuzzPlantedDeepStructured", shape: .type2, summary: "planted bug: Text record inside a valid NDEF TLV, structure-aware", roundTrip: false),
        .init(name: "FuzzPlantedSmartPoster", shape: .ndef, summary: "planted bug: size record in a Smart Poster's nested message, plain libFuzzer", roundTrip: false),
        .init(name: "FuzzPlantedSmartPosterStructured", shape: .ndef, summary: "planted bug: size record in a Smart Poster's nested message, structure-aware", roundTrip: false),
        .init(name: "FuzzPlantedBlockList", shape: .felica, summary: "planted bug: 3-byte FeliCa block-list element, plain libFuzzer", roundTrip: false),
        .init(name: "FuzzPlantedBlockListStructured", shape: .felica, summary: "planted bug: 3-byte FeliCa block-list element, structure-aware", roundTrip: false),
    ]

    /// The target called `name` (case-insensitive), the planted-bug benchmark targets included; nil
    /// for an unknown name.
    public static func named(_ name: String) -> FuzzTargetInfo? {
        (all + planted).first { $0.name.lowercased() == name.lowercased() }
    }
}
