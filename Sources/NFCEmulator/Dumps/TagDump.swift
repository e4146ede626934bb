import NFCCore

/// A tag loaded from a dump file, ready to be emulated, and savable back.
public enum TagDump: Sendable {
    case type2(Type2Dump)

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
                return .type2(try Type2Dumps.flipper(file))
            default:
                throw DumpError(file: name, line: file.entry("Device type")?.line, field: "Device type",
                                message: "cannot emulate a \"\(device)\" (supported: NTAG/Ultralight)")
            }
        }
        if bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) == 0x7B {
            let json: JSONValue
            do {
                json = try JSONValue.parse(bytes)
            } catch {
                throw DumpError(file: name, message: "not valid JSON: \(error)")
            }
            switch json["FileType"]?.string {
            case "mfu"?: return .type2(try Type2Dumps.proxmark3(json, name: name))
            case let other:
                throw DumpError(file: name, field: "FileType", message: "cannot emulate a Proxmark3 \"\(other ?? "?")\" dump (supported: mfu)")
            }
        }
        return .type2(try Type2Dumps.binary(bytes, name: name, model: model))
    }

    /// An emulated tag in the dump's state.
    public func makeTag() -> EmulatedTag? {
        switch self {
        case .type2(let d): return Type2Tag(memory: d.memory, atqa: d.atqa, sak: d.sak)
        }
    }

    public var notes: [String] {
        switch self {
        case .type2(let d): return d.notes
        }
    }

    /// The tag's current state as a dump file (Flipper `.nfc` text).
    public static func save(_ tag: EmulatedTag) -> [UInt8]? {
        if let t = tag as? Type2Tag {
            return Array(Type2Dumps.flipperText(Type2Dump(memory: t.memory, atqa: t.listener.atqa, sak: t.listener.finalSAK)).utf8)
        }
        return nil
    }

    /// A one-line description: `NTAG215, UID 04 51 5C FA 6F 73 81`.
    public var summary: String {
        switch self {
        case .type2(let d): return "\(d.memory.model.rawValue), UID \(Hex.string(d.memory.uid))"
        }
    }
}
