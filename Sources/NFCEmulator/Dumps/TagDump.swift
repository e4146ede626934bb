import NFCCore

/// What a dump file (or a trace's reconstruction, or a built-in configuration) describes: a tag
/// that can be emulated. Each technology's dump type conforms.
public protocol TagDumpContent: Sendable {
    /// `NTAG215, UID 04 51 5C FA 6F 73 81`.
    var summary: String { get }
    /// Things the user should know (e.g. a PWD page that was read as zeros).
    var notes: [String] { get }
    func makeTag() -> EmulatedTag?
}

/// A tag loaded from a dump file, ready to be emulated.
public struct TagDump: Sendable {
    public var content: any TagDumpContent

    public init(_ content: any TagDumpContent) { self.content = content }

    public var summary: String { content.summary }
    public var notes: [String] { content.notes }
    public func makeTag() -> EmulatedTag? { content.makeTag() }

    /// Loads a dump by content: a Flipper `.nfc`, a Proxmark3 JSON, or a raw/Proxmark3 binary.
    /// `model` settles raw page dumps whose size does not say.
    public static func load(_ bytes: [UInt8], name: String, model: Type2TagModel? = nil) throws(DumpError) -> TagDump {
        guard !bytes.isEmpty else { throw DumpError(file: name, message: "empty file") }
        let text = String(decoding: bytes.prefix(64), as: UTF8.self)
        if text.hasPrefix("Filetype:") {
            let file = try FlipperNFCFile(text: String(decoding: bytes, as: UTF8.self), name: name)
            let device = file.string("Device type") ?? ""
            switch device {
            case "NTAG/Ultralight", "NTAG203", "NTAG210", "NTAG212", "NTAG213", "NTAG215", "NTAG216",
                 "Mifare Ultralight", "Mifare Ultralight 11", "Mifare Ultralight 21", "Mifare Ultralight C":
                return TagDump(try Type2Dumps.flipper(file))
            case "ISO15693-3", "ISO15693", "SLIX":
                return TagDump(try ISO15693Dumps.flipper(file))
            case "FeliCa": return TagDump(try FeliCaDumps.flipper(file))
            case FlipperMIFAREClassicFile.deviceType: return TagDump(try MIFAREClassicDumps.flipper(file))
            case FlipperDESFireFile.deviceType: return TagDump(try DESFireDumps.flipper(file))
            default:
                throw DumpError(file: name, line: file.entry("Device type")?.line, field: "Device type",
                                message: "cannot emulate a \"\(device)\" (supported: NTAG/Ultralight, Mifare Classic, Mifare DESFire, FeliCa, ISO15693-3, SLIX)")
            }
        }
        if bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) == 0x7B {
            let json: JSONValue
            do {
                json = try JSONValue.parse(bytes)
            } catch {
                throw DumpError(file: name, message: "not valid JSON: \(error)")
            }
            switch json[Proxmark3DumpKeys.fileType]?.string {
            case Proxmark3MFUFile.fileType?: return TagDump(try Type2Dumps.proxmark3(json, name: name))
            case Proxmark3ISO15693File.fileType?: return TagDump(try ISO15693Dumps.proxmark3(json, name: name))
            case Proxmark3MIFARECardFile.fileType?: return TagDump(try MIFAREClassicDumps.proxmark3(json, name: name))
            case let other:
                throw DumpError(file: name, field: Proxmark3DumpKeys.fileType, message: "cannot emulate a Proxmark3 \"\(other ?? "?")\" dump (supported: mfu, mfcard, 15693 v4)")
            }
        }
        if model == nil, MIFAREClassicDumps.isRawImage(bytes) { return TagDump(try MIFAREClassicDumps.binary(bytes, name: name)) }
        if MIFAREClassicDumps.isEML(bytes) { return TagDump(try MIFAREClassicDumps.eml(bytes, name: name)) }
        return TagDump(try Type2Dumps.binary(bytes, name: name, model: model))
    }

    /// The tag a trace's dissection reconstructed (`emulate --from-trace`, replay against the trace's own tag).
    public init(reconstruction: TagReconstruction) {
        switch reconstruction {
        case .type2(let r): self.init(Type2Dump(reconstruction: r))
        case .iso15693(let r): self.init(ISO15693Dump(reconstruction: r))
        case .felica(let r): self.init(FeliCaDump(reconstruction: r))
        case .mifareClassic(let r): self.init(MIFAREClassicDump(reconstruction: r))
        case .type4(let r): self.init(Type4Dump(reconstruction: r))
        case .isoDEP(let r): self.init(ISODEPCardDump(reconstruction: r))
        case .iso14443b(let r): self.init(ISO14443BDump(reconstruction: r))
        case .iclass(let r): self.init(IClassDump(reconstruction: r))
        }
    }
}

/// Ready-made tags for `emulate --model NAME`: factory-fresh tags and the configurations the
/// traces of Traces/ need.
public struct BuiltInTag: Sendable {
    public var name: String
    public var description: String
    public var make: @Sendable () -> TagDump

    public init(name: String, description: String, make: @escaping @Sendable () -> TagDump) {
        self.name = name
        self.description = description
        self.make = make
    }

    public static var all: [BuiltInTag] { Type2Dump.builtIns + Type1Dump.builtIns + MIFAREClassicDump.builtIns + FeliCaDump.builtIns + ISO15693Dump.builtIns + Type4Dump.builtIns + EMVTestCardDump.builtIns + DESFireDump.builtIns }

    public static func named(_ name: String) -> BuiltInTag? {
        all.first { $0.name.lowercased() == name.lowercased() }
    }
}
