import NFCCore

/// What `nfctrace ndef decode` shows for some bytes: a raw NDEF message or a Type 2/3/5 memory
/// image holding one, decoded, described and judged.
public struct NDEFInspection: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case ndef, type2, type3, type5

        public var name: String {
            switch self {
            case .ndef: return "NDEF message"
            case .type2: return "Type 2 tag memory"
            case .type3: return "Type 3 tag memory"
            case .type5: return "Type 5 tag memory"
            }
        }
    }

    public var kind: Kind
    public var tree: FieldTree
    /// One line per NDEF record.
    public var records: [String]
    /// The strict verdict when asked for, else whether decoding met no error.
    public var isValid: Bool
    /// Why the message is invalid (first breach), when it is.
    public var rejection: String?
    /// The NDEF message decoded in the asked mode (for a memory image, the message it holds);
    /// nil when the image holds none.
    public var decoded: NDEFDecodeResult?

    /// Which kind of input `bytes` looks like. Memory images are recognised by their header:
    /// a Type 2 CC `E1 1x` at byte 12, a Type 5 CC `E1`/`E2` with major version 1 at byte 0,
    /// a Type 3 attribute block with a valid checksum; anything else is read as an NDEF message.
    public static func detect(_ bytes: [UInt8]) -> Kind {
        if bytes.count >= 16, bytes.count % 4 == 0, bytes[12] == 0xE1, bytes[13] >> 4 == 1 { return .type2 }
        if bytes.count >= 16, bytes.count % 16 == 0, (try? Type3AttributeInformationBlock.decode(Array(bytes[Type3AttributeInformationBlock.Layout.all.range])))?.checksumIsValid == true {
            return .type3
        }
        if bytes.count >= 8, bytes[0] == 0xE1 || bytes[0] == 0xE2, bytes[1] >> 6 == 1 { return .type5 }
        return .ndef
    }

    public static func inspect(_ bytes: [UInt8], as kind: Kind? = nil, mode: NDEFValidation = .lenient) -> NDEFInspection {
        let kind = kind ?? detect(bytes)
        let image = TagMemoryImage(bytes: bytes)
        let tree: FieldTree
        let message: [UInt8]?
        switch kind {
        case .ndef:
            let result = NDEFMessage.decode(bytes, mode: mode)
            return NDEFInspection(kind: kind, tree: NDEFDescriber.describe(result), records: NDEFDescriber.summaries(result),
                                  isValid: verdict(result, mode), rejection: result.firstRejection.map(describe), decoded: result)
        case .type2:
            let layout = Type2Memory.decode(image)
            tree = TagMemoryDescriber.describe(layout, image: image)
            message = layout.ndef?.tlv.value
        case .type3:
            let layout = Type3Memory.decode(image)
            tree = TagMemoryDescriber.describe(layout, image: image)
            message = layout.ndefRange.map { Array(bytes[$0.clamped(to: 0..<bytes.count)]) }
        case .type5:
            let layout = Type5Memory.decode(image)
            tree = TagMemoryDescriber.describe(layout, image: image)
            message = layout.ndef?.tlv.value
        }
        guard let message else {
            return NDEFInspection(kind: kind, tree: tree, records: [], isValid: false, rejection: "no NDEF message in this \(kind.name)",
                                  decoded: nil)
        }
        // The memory decoders read the message leniently; the verdict re-reads it in the asked mode.
        let result = NDEFMessage.decode(message, mode: mode)
        let memoryErrors = tree.diagnostics.contains { $0.severity == .error }
        return NDEFInspection(kind: kind, tree: tree, records: NDEFDescriber.summaries(result),
                              isValid: verdict(result, mode) && !memoryErrors,
                              rejection: result.firstRejection.map { "NDEF message " + describe($0) }, decoded: result)
    }

    static func verdict(_ r: NDEFDecodeResult, _ mode: NDEFValidation) -> Bool {
        mode == .strict ? r.isValid : !r.issues.contains { $0.isBreach && !$0.tolerated }
    }

    static func describe(_ i: NDEFIssue) -> String { "byte \(i.offset): \(i.message) [\(i.rule.rawValue)]" }
}

extension NDEFInspection {
    /// The text view, as UTF-8 at the end of `out`: what the input is, the verdict, one line per
    /// record, then the field tree.
    public func text(mode: NDEFValidation, into out: inout [UInt8]) {
        out.append(contentsOf: "\(kind.name), \(mode.rawValue): ".utf8)
        out.append(contentsOf: (isValid ? "valid" : "INVALID" + (rejection.map { " (\($0))" } ?? "")).utf8)
        out.append(0x0A)
        for (i, r) in records.enumerated() { out.append(contentsOf: "  record \(i + 1): \(r)\n".utf8) }
        out.append(0x0A)
        FieldTreeText.append(tree.fields, diagnostics: tree.diagnostics, into: &out)
        if out.last != 0x0A { out.append(0x0A) }
    }

    /// One JSON object and a newline, at the end of `out`: `{"kind", "mode", "valid",
    /// "rejection", "records", "fields", "diagnostics"}`.
    public func json(mode: NDEFValidation, into out: inout [UInt8]) {
        var w = JSONWriter()
        w.beginObject()
        w.string("kind", kind.rawValue)
        w.string("mode", mode.rawValue)
        w.bool("valid", isValid)
        if let rejection { w.string("rejection", rejection) }
        w.stringArray("records", records)
        w.fields("fields", tree.fields)
        w.diagnostics(tree.diagnostics)
        w.endObject()
        out.append(contentsOf: w.bytes)
        out.append(0x0A)
    }
}
