import NFCCore

/// Builds the end-of-session summary of an ISO 15693 VICC: identity from Inventory and Get
/// System Information, the memory rebuilt from block reads and acknowledged writes, and the
/// NFC Forum Type 5 CC, TLVs and NDEF message in it (decoded by the NDEF/tag-memory decoders).
enum ISO15693SessionSummary {
    /// The largest T5T area: an 8-byte CC and MLEN `FFFF` × 8 (protocols.md §6.5).
    static let imageLimit = 8 + 0xFFFF * 8

    static func make(_ s: ISO15693Session, detail: DissectionDetail) -> SessionSummary {
        let full = detail == .full
        var headline: [String] = []
        if let name = s.tagName { headline.append(name) }
        if let uid = s.uid { headline.append("UID \(uid)") }
        if let count = s.blockCount, let size = s.blockSize { headline.append("\(count) blocks × \(size) bytes") }
        if headline.isEmpty { headline.append(s.memory.isEmpty && s.inventoried.isEmpty ? "no VICC answered" : "UID unknown") }

        var diagnostics = s.diagnostics
        let tag = full ? tagFields(s) : []
        var memory: [Field] = []
        var layout: Type5MemoryLayout? = nil
        if !s.memory.isEmpty {
            if full { memory.append(ISO15693MemoryMap(s).field()) }
            if let size = s.blockSize, let image = s.memory.image(blockSize: size, blockCount: s.blockCount, limit: imageLimit) {
                let decoded = Type5Memory.decode(image)
                layout = decoded
                if full { memory += TagMemoryDescriber.describe(decoded, image: image).fields }
                diagnostics += decoded.issues.map(Diagnostic.init)
                if let cc = decoded.capabilityContainer, cc.isNDEF, let count = s.blockCount {
                    let total = count * size
                    if cc.dataAreaSize > total {
                        diagnostics.append(Diagnostic(.warning, "CC MLEN \(Hex.byte(UInt8(truncatingIfNeeded: cc.mlen))) declares a \(cc.dataAreaSize)-byte data area, more than the whole memory (\(count) blocks × \(size) bytes = \(total) bytes)",
                                                      range: cc.mlenRange))
                    }
                }
            } else if full {
                memory.append(Field(.t5t.cc, s.blockSize == nil ? "(not decoded: block size unknown)" : "(block 0 not read)"))
            }
        }
        var summary = SessionSummary(number: s.number, technology: .iso15693, firstFrame: s.firstFrame, lastFrame: s.lastFrame,
                                     headline: headline.joined(separator: ", "), tag: tag, memory: memory, diagnostics: diagnostics,
                                     reconstruction: reconstruction(s))
        if !full { summary.content = .iso15693(s, layout) }
        return summary
    }

    static func tagFields(_ s: ISO15693Session) -> [Field] {
        var tag: [Field] = []
        if let uid = s.uid {
            tag.append(Field(.tag.uid, uid.description))
            tag.append(Field(.tag.manufacturer, "\(Hex.byte(uid.manufacturerCode)) (\(ISO15693Session.manufacturerText(uid.manufacturerCode)))"))
            if let icode = uid.nxpICODEType { tag.append(Field(.tag.model, label: "ICODE type (UID hint)", icode)) }
        }
        if let v = s.dsfid { tag.append(Field(.tag.dsfid, Hex.byte(v) + (s.dsfidLocked ? " (locked)" : ""))) }
        if let v = s.afi { tag.append(Field(.tag.afi, Hex.byte(v) + (s.afiLocked ? " (locked)" : ""))) }
        if let v = s.icReference { tag.append(Field(.tag.icReference, Hex.byte(v))) }
        if let size = s.blockSize {
            let value = s.blockCount.map { "\($0) blocks × \(size) bytes" + (s.blockSizeInferred ? " (block size from the data length)" : "") }
                ?? "block size \(size) bytes" + (s.blockSizeInferred ? " (from the data length)" : "") + ", number of blocks unknown"
            tag.append(Field(.tag.memorySize, value))
        }
        tag.append(Field(.tag.state, s.state.rawValue))
        let others = s.inventoried.filter { $0 != s.uid }
        if !others.isEmpty { tag.append(Field(.tag.inventoried, others.map(\.description).joined(separator: ", "))) }
        return tag
    }
}

/// The rebuilt blocks as one field per block (tree and JSON); `ISO15693SessionText` shows them as hex rows.
struct ISO15693MemoryMap {
    let s: ISO15693Session

    init(_ s: ISO15693Session) { self.s = s }

    var heading: String {
        let numbers = s.memory.sortedNumbers
        let written = numbers.filter { s.memory[$0]?.written == true }.count
        var text = "\(numbers.count)" + (s.blockCount.map { " of \($0)" } ?? "") + " block\(numbers.count == 1 ? "" : "s") known"
        if written > 0 { text += ", \(written) written" }
        return text
    }

    func field() -> Field {
        let children = s.memory.sortedNumbers.compactMap { n -> Field? in
            guard let b = s.memory[n] else { return nil }
            var flags: [String] = []
            if b.written { flags.append(b.read ? "written, read back" : "written") }
            if b.locked == true { flags.append("locked") }
            return Field(.memory.block, label: "Block \(n)", Hex.string(b.data) + (flags.isEmpty ? "" : " (\(flags.joined(separator: ", ")))"))
        }
        return Field(.memory.blocks, label: "Blocks", heading, children: children)
    }
}
