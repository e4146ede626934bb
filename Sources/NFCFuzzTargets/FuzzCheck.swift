import NFCFuzz

/// What a fuzz target concluded about one input. Decoders must never trap on any input (that
/// is the crash libFuzzer looks for); a `.mismatch` is the other kind of bug a target finds:
/// a round trip or a protocol invariant that does not hold. The libFuzzer harness traps on it;
/// the regression tests expect `.ok`.
public enum FuzzCheck: Sendable, Equatable {
    case ok
    /// `rule — details`: the part before ` — ` is what crash reports group by.
    case mismatch(String)

    /// The first failing check of several.
    static func all(_ checks: FuzzCheck...) -> FuzzCheck {
        checks.first { $0 != .ok } ?? .ok
    }

    static func expect(_ condition: Bool, _ message: @autoclosure () -> String) -> FuzzCheck {
        condition ? .ok : .mismatch(message())
    }
}

/// The body of every target in `FuzzTargetInfo.all`, by name.
public enum FuzzTargets {
    public static func run(_ name: String, _ input: [UInt8]) -> FuzzCheck? {
        body(name).map { $0(input) }
    }

    public static func body(_ name: String) -> (@Sendable ([UInt8]) -> FuzzCheck)? {
        switch name {
        case "FuzzNDEFStrict": return CodecTargets.ndefStrict
        case "FuzzNDEFLenient": return CodecTargets.ndefLenient
        case "FuzzType2Memory": return CodecTargets.type2Memory
        case "FuzzType3Memory": return CodecTargets.type3Memory
        case "FuzzType5Memory": return CodecTargets.type5Memory
        case "FuzzFeliCaCodec": return CodecTargets.feliCa
        case "FuzzISO15693Codec": return CodecTargets.iso15693
        case "FuzzMIFAREClassicCodec": return CodecTargets.mifareClassic
        case "FuzzISO7816Codec": return CodecTargets.iso7816
        case "FuzzDESFireEMVCodec": return CodecTargets.desfireEMV
        case "FuzzTextTrace": return CaptureTargets.textTrace
        case "FuzzProxmark3Trace": return CaptureTargets.proxmark3
        case "FuzzPcap": return CaptureTargets.pcap
        case "FuzzProxmark3Listing": return CaptureTargets.proxmark3Listing
        case "FuzzNFCLaboratory": return CaptureTargets.nfcLaboratory
        case "FuzzPcapRecord": return CaptureTargets.pcapRecord
        case "FuzzDissectNFCA": return { SessionTargets.dissect($0, technology: .iso14443a) }
        case "FuzzDissectFeliCa": return { SessionTargets.dissect($0, technology: .felica) }
        case "FuzzDissectISO15693": return { SessionTargets.dissect($0, technology: .iso15693) }
        case "FuzzDissectISODEP": return SessionTargets.dissectISODEP
        case "FuzzDumpLoad": return SessionTargets.dumpLoad
        case "FuzzEmulateType2": return { SessionTargets.emulate($0, technology: .iso14443a) }
        case "FuzzEmulateFeliCa": return { SessionTargets.emulate($0, technology: .felica) }
        case "FuzzEmulateISO15693": return { SessionTargets.emulate($0, technology: .iso15693) }
        case "FuzzEmulateISODEP": return { SessionTargets.emulate($0, technology: .iso14443a, models: SessionTargets.isoDEPModels) }
        default: return nil
        }
    }
}
