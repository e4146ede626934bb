import NFCCore

/// The TLV area of a Type 2 or Type 5 memory image as an editable list (T2T §2.3, T5T §4.3):
/// the fuzzer's view of `TagTLVArea`, which it can encode back with either length form and
/// with lengths that do not match on purpose.
struct TLVAreaModel: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        var tag: UInt8
        var value: [UInt8]
        /// The 3-byte length form (`FF` + 2 bytes) even for short values.
        var longLength = false
        /// Declared length when it should not match the value (breakage); nil = the value's length.
        var declaredLength: Int? = nil

        var hasLength: Bool { tag != 0x00 && tag != 0xFE }

        func encode() -> [UInt8] {
            guard hasLength else { return [tag] }
            let n = declaredLength ?? value.count
            let length: [UInt8] = n >= 0xFF || longLength ? [0xFF, UInt8(truncatingIfNeeded: n >> 8), UInt8(truncatingIfNeeded: n)] : [UInt8(n)]
            return [tag] + length + value
        }
    }

    var entries: [Entry]
    var terminated: Bool

    /// The TLVs the codec walked (NULL runs expanded, the Terminator folded into `terminated`).
    init(_ area: TagTLVArea) {
        var entries: [Entry] = []
        var terminated = false
        for tlv in area.tlvs {
            switch tlv.tag {
            case .terminator: terminated = true
            case .null: entries += [Entry](repeating: Entry(tag: 0, value: []), count: min(tlv.repeatCount, 64))
            default: entries.append(Entry(tag: tlv.tag.byte, value: tlv.value, longLength: tlv.lengthRange?.count == 3))
            }
            if terminated { break }
        }
        self.entries = entries
        self.terminated = terminated
    }

    init(entries: [Entry], terminated: Bool = true) {
        self.entries = entries
        self.terminated = terminated
    }

    /// An area holding one NDEF Message TLV and a Terminator.
    static func holding(_ message: [UInt8]) -> TLVAreaModel { TLVAreaModel(entries: [Entry(tag: 0x03, value: message)]) }

    func encode() -> [UInt8] { entries.flatMap { $0.encode() } + (terminated ? [0xFE] : []) }

    var ndefIndex: Int? { entries.firstIndex { $0.tag == 0x03 } }

    /// A Lock or Memory Control TLV value (T2T §2.3.1–2.3.2: V0 = page address and byte offset,
    /// V1 = size, V2 = bytes per page and bytes locked per bit) naming `size` bytes at `position`,
    /// with the smallest page size whose 4-bit page address reaches it.
    static func controlValue(position: Int, size: UInt8, bitsPerLock: UInt8 = 3) -> [UInt8] {
        var n = 2
        while position >> n > 15 && n < 15 { n += 1 }
        let page = min(15, position >> n)
        let offset = min(15, position - page << n)
        return [UInt8(page << 4 | offset), size, bitsPerLock << 4 | UInt8(n)]
    }

    /// TLVs a well-formed area may hold: Lock and Memory Control TLVs naming bytes after the
    /// data area (`dataEnd`), NULL, Proprietary and RFU TLVs.
    static func controlTLV(_ r: inout FuzzRandom, type2: Bool, dataEnd: Int) -> Entry {
        switch r.below(type2 ? 5 : 3) {
        case 0: return Entry(tag: 0xFD, value: r.bytes(r.length(upTo: 12)))                     // Proprietary
        case 1: return Entry(tag: 0x00, value: [])                                              // NULL
        case 2: return Entry(tag: r.pick(0x04, 0x10, 0x7F, 0xFC), value: r.bytes(r.length(upTo: 6)))   // RFU: skipped by its length
        case 3: return Entry(tag: 0x01, value: controlValue(position: dataEnd + 4 * r.below(4), size: UInt8(8 * (1 + r.below(4)))))
        default: return Entry(tag: 0x02, value: controlValue(position: dataEnd + 16 + 4 * r.below(4), size: UInt8(4 * (1 + r.below(4))), bitsPerLock: 0))
        }
    }

    /// Control TLVs that contradict the area: lock or reserved bytes on top of the TLVs, control
    /// TLVs of the wrong size, page addresses at the limit.
    static func hostileControlTLV(_ r: inout FuzzRandom, type2: Bool) -> Entry {
        switch r.below(4) {
        case 0: return Entry(tag: 0x01, value: controlValue(position: 16 + r.below(24), size: UInt8(1 + r.below(64))))
        case 1: return Entry(tag: 0x02, value: controlValue(position: 16 + r.below(24), size: r.pick(0, 1, 7, 255), bitsPerLock: 0))
        case 2: return Entry(tag: r.pick(0x01, 0x02), value: r.bytes(r.pick(0, 1, 2, 4, 8)))   // wrong size
        default: return Entry(tag: r.pick(0x01, 0x02), value: [0xFF, r.byte(), r.pick(0xFF, 0x0F, 0x00)])
        }
    }

    /// One structural change; `ndef` mutates an NDEF message (the nested shape).
    mutating func mutate(_ m: inout MutationContext, type2: Bool, dataEnd: Int, ndef: NDEFShape) {
        let i = m.random.below(entries.count)
        switch m.random.weighted([40, 14, 8, 6, 6, 5, 5, 8]) {
        case 0:
            if let n = ndefIndex {
                entries[n].value = (m.random.chance(85) ? ndef.mutateMessage(entries[n].value, depth: 0, &m) : nil) ?? ndef.generate(&m)
            } else {
                entries.insert(Entry(tag: 0x03, value: ndef.generate(&m)), at: m.random.below(entries.count + 1))
            }
        case 1: entries.insert(Self.controlTLV(&m.random, type2: type2, dataEnd: dataEnd), at: m.random.below(min(entries.count, ndefIndex ?? entries.count) + 1))
        case 2: if !entries.isEmpty && entries[i].tag != 0x03 { entries.remove(at: i) } else { entries.shuffle(using: &m.random) }
        case 3: if let n = ndefIndex { entries[n].longLength.toggle() }
        case 4: entries.append(Entry(tag: 0x03, value: m.random.chance(50) ? [] : ndef.generate(&m)))   // a second NDEF TLV
        case 5: terminated.toggle()
        case 6: if let n = ndefIndex { entries[n].value = [] }   // empty NDEF TLV: a blank tag
        default: if !entries.isEmpty { entries[i].value = m.mutatedField(entries[i].value, limit: 256) }
        }
    }

    /// One deliberate inconsistency in the TLVs themselves.
    mutating func breakEntries(_ m: inout MutationContext, ndef: NDEFShape) {
        guard let n = ndefIndex ?? (entries.isEmpty ? nil : m.random.below(entries.count)) else {
            entries = [Entry(tag: 0x03, value: [], declaredLength: 1 + m.random.below(300))]
            return
        }
        switch m.random.below(6) {
        case 5: entries.insert(Self.hostileControlTLV(&m.random, type2: true), at: 0)
        case 0: entries[n].declaredLength = entries[n].value.count + 1 + m.random.below(m.random.chance(50) ? 4 : 2000)   // overruns
        case 1: entries[n].declaredLength = max(0, entries[n].value.count - 1 - m.random.below(4))                        // stops short
        case 2: entries[n].declaredLength = 0xFFFF                                                                       // FF FF FF is RFU
        case 3: entries[n].value = ndef.breakStructure(entries[n].value, &m) ?? m.mutatedField(entries[n].value, limit: 256)
        default:
            // The area ends inside a 3-byte length: the TLV is the last thing and is cut.
            entries = Array(entries.prefix(n)) + [Entry(tag: entries[n].tag, value: [], longLength: true, declaredLength: 0x0100)]
            terminated = false
        }
    }
}

/// A cut that the image reader must survive: inside the CC, inside a length, mid-value.
func truncated(_ bytes: [UInt8], _ r: inout FuzzRandom) -> [UInt8] {
    Array(bytes.prefix(r.below(bytes.count + 1)))
}
