import NFCCore

/// The input formats the fuzzer mutates structurally. Each names its mutator; `--exec --shape`
/// and `emulate --fuzz` take the same names.
public enum FuzzShape: String, Sendable, CaseIterable {
    case ndef
    case type2
    case type3
    case type5
    case felica
    case felicaBlocks = "felica-blocks"
    case iso15693
    case framesNFCA = "frames-14443a"
    case framesFeliCa = "frames-felica"
    case framesISO15693 = "frames-15693"
    case framesISODEP = "frames-isodep"
    case textTrace = "nfctrace"
    case proxmark3 = "pm3"
    case pcap
    case pcapRecord = "pcap-record"
    case proxmark3Listing = "pm3-listing"
    case nfcLaboratory = "nfclab"
    case dump
    case mifareClassic = "mifare-classic"
    case iso7816
    case applicationData = "desfire-emv"

    /// The structure-aware mutator of this shape (seeds, dictionary, mutations).
    public var mutator: any ShapeMutator {
        switch self {
        case .ndef: return NDEFShape()
        case .type2: return Type2Shape()
        case .type3: return Type3Shape()
        case .type5: return Type5Shape()
        case .felica: return FeliCaCommandShape()
        case .felicaBlocks: return FeliCaBlocksShape()
        case .iso15693: return ISO15693RequestShape()
        case .framesNFCA: return FramesShape(technology: .iso14443a)
        case .framesFeliCa: return FramesShape(technology: .felica)
        case .framesISO15693: return FramesShape(technology: .iso15693)
        case .framesISODEP: return FramesShape(technology: .iso14443a, isoDEP: true)
        case .textTrace: return TextTraceShape()
        case .proxmark3: return Proxmark3TraceShape()
        case .pcap: return PcapShape()
        case .proxmark3Listing: return ForeignCaptureShape(.proxmark3Listing)
        case .nfcLaboratory: return ForeignCaptureShape(.nfcLaboratory)
        case .pcapRecord: return PcapRecordShape()
        case .dump: return DumpShape()
        case .mifareClassic: return MIFAREClassicShape()
        case .iso7816: return ISO7816Shape()
        case .applicationData: return ApplicationDataShape()
        }
    }

    /// What inputs of this shape are, in one line, for `nfctrace fuzz --list`.
    public var summary: String {
        switch self {
        case .ndef: return "NDEF message (records, flags, TNF, lengths, chunks, Smart Posters, Text/URI payloads)"
        case .type2: return "Type 2 tag memory image from page 0 (CC, Lock/Memory Control TLVs, NDEF TLV)"
        case .type3: return "Type 3 tag image (Attribute Information Block + NDEF blocks)"
        case .type5: return "Type 5 tag memory image from block 0 (4/8-byte CC, TLVs)"
        case .felica: return "FeliCa command, LEN code [IDm] parameters, no CRC (service/block lists)"
        case .felicaBlocks: return "FeliCa block data, 16-byte blocks (AIB, transit history, Lite-S)"
        case .iso15693: return "ISO 15693 request, flags code [UID] parameters, no CRC"
        case .framesNFCA: return "ISO 14443-A/Type 2 frame sequence (nfctrace fuzz frame format)"
        case .framesFeliCa: return "FeliCa frame sequence (nfctrace fuzz frame format)"
        case .framesISO15693: return "ISO 15693 frame sequence (nfctrace fuzz frame format)"
        case .framesISODEP: return "ISO 14443-A frame sequence speaking ISO-DEP: Type 4, EMV, DESFire, MIFARE Plus sessions, chained answers, WTX"
        case .textTrace: return ".nfctrace text trace"
        case .proxmark3: return "Proxmark3 .trace tracelog"
        case .pcap: return "pcap/pcapng capture, link types 264 and 150"
        case .pcapRecord: return "one pcap record with its ISO 14443 or nfctrace pseudo-header"
        case .proxmark3Listing: return "Proxmark3 trace list table (today's layout; prose, colours, old rows by mutation)"
        case .nfcLaboratory: return "nfc-laboratory JSON frame export"
        case .dump: return "tag dump file (Flipper .nfc, Proxmark3 JSON, raw pages)"
        case .mifareClassic: return "MIFARE Classic command, sector trailer, value block or MAD with NDEF sectors (byte 0 says which)"
        case .iso7816: return "ISO-DEP block, command APDU, response APDU with a BER-TLV tree, or Type 4 CC file (byte 0 says which)"
        case .applicationData: return "DESFire GET VERSION or file settings, EMV data object list with values, or EMV record with card data (byte 0 says which)"
        }
    }
}
