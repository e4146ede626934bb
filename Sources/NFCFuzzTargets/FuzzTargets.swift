import NFCFuzz
// FuzzCheck and the NFCCore-only bodies: every user of the registry sees them as before.
@_exported import NFCFuzzCodecTargets

/// The body of every target in `FuzzTargetInfo.all`, by name.
public enum FuzzTargets {
    public static func run(_ name: String, _ input: [UInt8]) -> FuzzCheck? {
        body(name).map { $0(input) }
    }

    public static func body(_ name: String) -> (@Sendable ([UInt8]) -> FuzzCheck)? {
        if let body = CoreCodecTargets.body(name) { return body }
        switch name {
        case "FuzzNDEFLenient": return CodecTargets.ndefLenient
        case "FuzzType2Memory": return CodecTargets.type2Memory
        case "FuzzType3Memory": return CodecTargets.type3Memory
        case "FuzzType5Memory": return CodecTargets.type5Memory
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
        case "FuzzType1": return SessionTargets.type1
        default: return nil
        }
    }
}
