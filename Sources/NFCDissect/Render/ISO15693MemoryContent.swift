import NFCCore

/// The text view of a Type 5 tag's rebuilt memory: the CC byte by byte (CC1 holds version
/// *and* access, CC2 is MLEN, CC3 the features — protocols.md §6.5, correcting the source
/// article), then one line per TLV with the NDEF records it carries.
enum ISO15693MemoryContent {
    static func lines(_ layout: Type5MemoryLayout) -> [String] {
        guard let cc = layout.capabilityContainer else { return [] }
        var out = ["Type 5 CC \(Hex.string(cc.bytes)):"]
        func byte(_ b: UInt8, _ text: String) { out.append("    \(Hex.value(b, digits: 2))     \(text)") }
        let magic: String
        switch cc.magic {
        case 0xE1: magic = "NDEF data, 1-byte block addresses reach the whole data area"
        case 0xE2: magic = "NDEF data, the data area needs 2-byte (extended) block addresses"
        default: magic = "neither E1 nor E2: not NDEF formatted"
        }
        byte(cc.magic, "CC0 magic: \(magic)")
        byte(cc.versionAndAccess, "CC1 version \(cc.versionText) (b8–b5), read access \(cc.readAccess.name) (b4–b3), write access \(cc.writeAccess.name) (b2–b1)")
        let area = "\(cc.dataAreaSize)-byte data area"
        let features = cc.featureNames.isEmpty ? "none" : cc.featureNames.joined(separator: ", ")
        if cc.isExtended {
            byte(0x00, "CC2 = 00: 8-byte CC, MLEN in bytes 6–7")
            byte(cc.features, "CC3 features: \(features)")
            out.append("    \(Hex.string(cc.rfu))  bytes 4–5 RFU")
            out.append("    \(Hex.string([UInt8(cc.mlen >> 8), UInt8(truncatingIfNeeded: cc.mlen)]))  MLEN: 0x\(Hex.value(cc.mlen, digits: 4)) × 8 = \(area)")
        } else {
            byte(UInt8(truncatingIfNeeded: cc.mlen), "CC2 MLEN: 0x\(Hex.value(cc.mlen, digits: 2)) × 8 = \(area)")
            byte(cc.features, "CC3 features: \(features)")
        }
        guard let tlvArea = layout.tlvArea else { return out }
        out.append("TLVs from byte \(cc.length):")
        out.append(contentsOf: TagTLVLines.lines(tlvArea).map { "    " + $0 })
        return out
    }
}
