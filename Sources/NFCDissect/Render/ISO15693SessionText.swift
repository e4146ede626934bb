import NFCCore

/// The compact text view of an ISO 15693 session: one line about the tag, the known blocks as
/// hex rows, then the Type 5 CC byte by byte and the TLVs with their NDEF records.
enum ISO15693SessionText {
    static func lines(_ s: ISO15693Session, layout: Type5MemoryLayout?) -> [String] {
        var out: [String] = []
        if let line = tagLine(s) { out.append(line) }
        guard !s.memory.isEmpty else { return out }
        out += memoryRows(s)
        if let layout {
            out += ISO15693MemoryContent.lines(layout)
        } else {
            out.append(s.blockSize == nil ? "block size unknown: the Type 5 CC and NDEF are not decoded"
                                          : "block 0 (the Type 5 CC) was not read: no NDEF decoding")
        }
        return out
    }

    static func tagLine(_ s: ISO15693Session) -> String? {
        var parts: [String] = []
        if let uid = s.uid {
            parts.append("\(ISO15693Session.manufacturerText(uid.manufacturerCode)) (IC manufacturer \(Hex.byte(uid.manufacturerCode)))")
            if let icode = uid.nxpICODEType { parts.append("\(icode) by its UID (a hint)") }
        }
        if let v = s.dsfid { parts.append("DSFID \(Hex.byte(v))" + (s.dsfidLocked ? " (locked)" : "")) }
        if let v = s.afi { parts.append("AFI \(Hex.byte(v))" + (s.afiLocked ? " (locked)" : "")) }
        if let v = s.icReference { parts.append("IC reference \(Hex.byte(v))") }
        if s.blockSizeInferred, let size = s.blockSize { parts.append("block size \(size) (from the data length)") }
        parts.append("state at end: \(s.state.rawValue)")
        let others = s.inventoried.filter { $0 != s.uid }
        if !others.isEmpty { parts.append("inventory also found \(others.map(\.description).joined(separator: ", "))") }
        return parts.isEmpty ? nil : "tag: " + parts.joined(separator: ", ")
    }

    /// `      0  E1 40 30 01*  03 0C D1 01*` — rows of up to 16 bytes of consecutive blocks;
    /// `*` marks a block written in this session, `#` a locked one.
    static func memoryRows(_ s: ISO15693Session) -> [String] {
        let numbers = s.memory.sortedNumbers
        let size = s.blockSize ?? 4
        let perRow = max(1, 16 / max(1, size))
        let width = String(numbers.last ?? 0).count
        var out = ["memory: " + ISO15693MemoryMap(s).heading]
        var row = ""
        var rowStart = -1
        var inRow = 0
        var marks = Set<Character>()
        func flush() {
            if inRow > 0 { out.append("    " + String(repeating: " ", count: width - String(rowStart).count) + "\(rowStart)  \(row)") }
            row = ""
            inRow = 0
        }
        for n in numbers {
            guard let b = s.memory[n] else { continue }
            if inRow == perRow || (inRow > 0 && n != rowStart + inRow) { flush() }
            if inRow == 0 { rowStart = n } else { row += "  " }
            var mark = ""
            if b.written { mark += "*"; marks.insert("*") }
            if b.locked == true { mark += "#"; marks.insert("#") }
            row += Hex.string(b.data) + mark
            inRow += 1
        }
        flush()
        var legend: [String] = []
        if marks.contains("*") { legend.append("* written in this session") }
        if marks.contains("#") { legend.append("# locked") }
        if !legend.isEmpty { out.append("    (" + legend.joined(separator: "; ") + ")") }
        return out
    }
}
