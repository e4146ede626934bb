/// A Type 2 tag as NXP delivers it: the one description of factory content that the emulator's
/// built-in tags, dumps missing their last pages and `ndef encode` all start from.
public enum Type2FactoryImage {
    /// The configuration pages as delivered: CFG0, CFG1, PWD, PACK (+ 2 RFUI bytes), 16 bytes.
    ///
    /// NTAG213/215/216 datasheet §8.5.7 (Table "Configuration parameter descriptions"): MIRROR
    /// `04h` (STRG_MOD_EN 1b, no mirror), MIRROR_PAGE `00h`, AUTH0 `FFh` (no page protected),
    /// ACCESS `00h` (PROT, CFGLCK, NFC_CNT_EN, NFC_CNT_PWD_PROT 0b, AUTHLIM 000b), PWD
    /// `FFFFFFFFh`, PACK `0000h`. CFG1 bytes 1–3 are RFUI there with no value given; a blank
    /// NTAG216 read by a Proxmark3 (`../shared/dumps/pm3_ntag216-empty.json`, page E4h) and the
    /// Flipper documentation's NTAG216 example (protocols.md §2.4) both show CFG1 `00 05 00 00`,
    /// so byte 1 is `05` as measured. Ultralight EV1 (MF0ULx1 datasheet §8.5.7): MOD `00h`,
    /// AUTH0 `FFh`, ACCESS `00h`, VCTID `05h`.
    public static func configuration(_ family: Type2MemoryMap.ConfigFamily) -> [UInt8] {
        let cfg0: [UInt8] = family == .ntag21x ? [0x04, 0x00, 0x00, 0xFF] : [0x00, 0x00, 0x00, 0xFF]
        return cfg0 + [0x00, 0x05, 0x00, 0x00] + [0xFF, 0xFF, 0xFF, 0xFF] + [0x00, 0x00, 0x00, 0x00]
    }

    /// Pages 0–2 for a 7-byte `uid`: UID0–2 BCC0, UID3–6, BCC1, internal `48h`, static lock
    /// bytes 0 (ISO/IEC 14443-3 §6.5.4: BCC0 = CT ⊕ UID0 ⊕ UID1 ⊕ UID2; NTAG21x §8.5.1).
    /// A UID of another length is replaced by `04 00 00 00 00 00 00`.
    public static func header(uid: [UInt8]) -> [UInt8] {
        let u = uid.count == 7 ? uid : [0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
        let bcc0 = ISO14443A.cascadeTag ^ u[0] ^ u[1] ^ u[2]
        let bcc1 = u[3] ^ u[4] ^ u[5] ^ u[6]
        return [u[0], u[1], u[2], bcc0, u[3], u[4], u[5], u[6], bcc1, 0x48, 0x00, 0x00]
    }

    /// The factory bytes after the data area, written over `image` (sized to the model): the
    /// dynamic lock page's RFUI byte `BDh` as NTAG21x tags read (pm3_ntag216-empty.json page
    /// E2h), Ultralight C's AUTH0/AUTH1 and key, and the configuration pages.
    public static func applyTail(_ model: Type2TagModel, to image: inout [UInt8]) {
        let map = model.memoryMap
        guard image.count >= map.totalPages * 4 else { return }
        if let dyn = map.dynamicLockPage, model.isNTAG { image[dyn * 4 + 3] = 0xBD }
        if model == .ultralightC, let counter = map.ulcCounterPage {
            // MF0ICU2 as delivered: AUTH0 30h (no page protected), AUTH1 0, the factory key.
            image[(counter + 1) * 4] = 0x30
            image.replaceSubrange((counter + 3) * 4..<(counter + 7) * 4, with: UltralightKey.wellKnown[0].pageOrder)
        }
        if let c0 = map.cfg0Page, let family = map.configFamily {
            image.replaceSubrange(c0 * 4..<c0 * 4 + 16, with: configuration(family))
        }
    }

    /// A factory-fresh tag of `model`: header, and for NTAG21x the CC and empty NDEF message
    /// as NXP ships them (NTAG213 with its Lock Control TLV), then the factory tail.
    public static func pages(_ model: Type2TagModel, uid: [UInt8]) -> [UInt8] {
        let size = model.memoryMap.totalPages * 4
        var pages: [UInt8]
        if model.isNTAG, let formatted = try? Type2Memory.image(model: model, message: [], header: header(uid: uid)) {
            pages = formatted
        } else {
            pages = header(uid: uid) + [UInt8](repeating: 0, count: max(0, size - 12))
        }
        applyTail(model, to: &pages)
        return pages
    }
}
