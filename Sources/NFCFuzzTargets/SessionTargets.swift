import NFCCore
import NFCDissect
import NFCEmulator
import NFCFuzz

/// Targets that run whole sessions: the dissectors and renderers, the emulators, the dump loaders.
enum SessionTargets {
    /// The frame sequence dissected as one technology and rendered. Selector bit 0 picks the
    /// verbose text renderer, bit 1 summary detail (fields skipped), bit 2 JSON as well.
    static func dissect(_ input: [UInt8], technology: Technology) -> FuzzCheck {
        let (selector, frames) = FrameSequence.frames(input, technology: technology)
        // No MIFARE Classic key search: a search is arithmetic on a few nonces, not parsing
        // (Crypto1Tests check it against published vectors), and one mfkey32 search under ASan
        // outlasts libFuzzer's 5 s timeout. The shape's Classic sessions are encrypted under
        // published keys, which the key list finds, so decryption and all after it is fuzzed.
        var keys = KeyList.defaults
        keys.keySearchBudget = 0
        let dissector = Dissector(detail: selector & 0x02 == 0 ? .full : .summary, keys: keys)
        let text = TextRenderer(verbose: selector & 0x01 != 0)
        let json = selector & 0x04 != 0 ? JSONRenderer() : nil
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        let emit: (DissectionEvent) -> Void = { event in
            text.render(event, into: &out)
            json?.render(event, into: &out)
            if out.count > 1 << 16 { out.removeAll(keepingCapacity: true) }
        }
        for f in frames { dissector.process(f, emit: emit) }
        dissector.finish(emit: emit)
        return .ok
    }

    /// ISO-DEP sessions dissected as `dissect` does; and what `convert` writes of them (the
    /// card-data masking) keeps every frame, in order, changing only bytes the dissector masked
    /// and the comment.
    static func dissectISODEP(_ input: [UInt8]) -> FuzzCheck {
        let check = dissect(input, technology: .iso14443a)
        guard check == .ok else { return check }
        let (_, frames) = FrameSequence.frames(input, technology: .iso14443a)
        let masking = CardDataMasking()
        var out: [Frame] = []
        for f in frames { masking.push(f) { out.append($0) } }
        masking.finish { out.append($0) }
        guard out.count == frames.count else { return .mismatch("masking lost or added frames — \(frames.count) in, \(out.count) out") }
        for (a, b) in zip(frames, out) where a != b {
            guard a.event == b.event, a.bytes.count == b.bytes.count, b.comment?.hasSuffix(CardDataMasking.comment) == true else {
                return .mismatch("masking changed a frame beyond its card data — \(Hex.string(a.bytes.prefix(24)))")
            }
        }
        return .ok
    }

    /// Type 1: the frames against the Topaz 96, then through the 14443-A dissector (which reads
    /// them as Type 1 once an ATQA says so).
    static func type1(_ input: [UInt8]) -> FuzzCheck {
        let emulated = emulate(input, technology: .iso14443a, models: ["topaz96"])
        guard emulated == .ok else { return emulated }
        return dissect(input, technology: .iso14443a)
    }

    /// The built-in tags ISO-DEP readers talk to.
    static let isoDEPModels: Set<String> = ["type4-ndef", "desfire-ev1", "emv-test-card"]

    /// The built-in tags of a technology (of `models` when given), the selector picking one.
    /// Made fresh for each input, so that an input always means the same run.
    static func tag(_ selector: UInt8, technology: Technology, models: Set<String>? = nil) -> EmulatedTag? {
        let tags = BuiltInTag.all.filter { models?.contains($0.name) ?? true }.compactMap { $0.make().makeTag() }.filter { $0.technology == technology }
        guard !tags.isEmpty else { return nil }
        return tags[Int(selector) % tags.count]
    }

    /// Reader frames against a tag model. Invariants every answer keeps: a reader frame whose
    /// CRC is wrong gets no data answer; an answer carries a correct CRC when the request did;
    /// an answer to a command that decodes decodes as the answer to that command.
    static func emulate(_ input: [UInt8], technology: Technology, models: Set<String>? = nil) -> FuzzCheck {
        let (selector, frames) = FrameSequence.frames(input, technology: technology)
        guard let tag = tag(selector, technology: technology, models: models) else { return .ok }
        tag.fieldOn()
        for (n, frame) in frames.enumerated() {
            switch frame.event {
            case .fieldOn: tag.fieldOn()
            case .fieldOff: tag.fieldOff()
            case .data(.readerToTag):
                let quietInventory = (tag as? ISO15693Tag).map { $0.state == .quiet && frame.bytes.first.map { $0 & 0x04 != 0 } == true } ?? false
                let encrypted = (tag as? MIFAREClassicTag)?.isEncrypting ?? false
                guard let answer = tag.respond(to: frame) else { continue }
                let check = EmulatorInvariants.check(request: frame, answer: answer, tag: tag, quietInventory: quietInventory, encryptedBefore: encrypted)
                if case .mismatch(let why) = check { return .mismatch(why + (why.contains(" — ") ? "; " : " — ") + "frame \(n + 1): \(Hex.string(frame.bytes.prefix(24)))") }
            default: continue
            }
        }
        _ = tag.savedDump()
        return .ok
    }

    /// A dump loaded, made into a tag, saved and loaded again: the second save is the first.
    static func dumpLoad(_ input: [UInt8]) -> FuzzCheck {
        guard let dump = try? TagDump.load(input, name: "fuzz"), let tag = dump.makeTag() else { return .ok }
        _ = dump.summary
        _ = dump.notes
        guard let saved = tag.savedDump() else { return .ok }
        guard let again = try? TagDump.load(saved, name: "saved"), let tag2 = again.makeTag(), let saved2 = tag2.savedDump() else {
            return .mismatch("the saved dump does not load back — \(String(decoding: saved.prefix(120), as: UTF8.self))")
        }
        return .expect(saved2 == saved, "saving the reloaded tag gives a different file")
    }
}
