/// The fields of ISO 14443-3A (`iso14443a.*`): their keys are JSON keys, replay rules and filters name them
/// (docs/json-output.md, `nfctrace dissect --list-fields iso14443a`).
public final class ISO14443AFields: FieldTable {
    public var name: String { "iso14443a" }
    public var title: String { "ISO 14443-3A" }

    public let atqa = FieldSpec("iso14443a.atqa", "ATQA", .hex, layout: ATQA.Layout.all)
    public let atqaBitFrame = FieldSpec("iso14443a.atqa.bit_frame", "Bit frame anticollision", .text, layout: ATQA.Layout.anticollision)
    public let atqaProprietary = FieldSpec("iso14443a.atqa.proprietary", "Proprietary coding", .byte, layout: ATQA.Layout.proprietary)
    public let atqaUidSize = FieldSpec("iso14443a.atqa.uid_size", "UID size", .text, layout: ATQA.Layout.anticollision)
    public let atsHistorical = FieldSpec("iso14443a.ats.historical", "Historical bytes", .hex)
    public let atsT0 = FieldSpec("iso14443a.ats.t0", "T0", .text)
    public let atsTa1 = FieldSpec("iso14443a.ats.ta1", "TA(1)", .text)
    public let atsTb1 = FieldSpec("iso14443a.ats.tb1", "TB(1)", .text)
    public let atsTc1 = FieldSpec("iso14443a.ats.tc1", "TC(1)", .text)
    public let atsTl = FieldSpec("iso14443a.ats.tl", "TL", .text)
    public let bcc = FieldSpec("iso14443a.bcc", "BCC", .byte)
    public let command = FieldSpec("iso14443a.command", "Command", .text, layout: ISO14443ACommand.Layout.code)
    public let crc = FieldSpec("iso14443a.crc", "CRC", .hex)
    public let ct = FieldSpec("iso14443a.ct", "Cascade tag", .hex)
    public let data = FieldSpec("iso14443a.data", "Data", .hex)
    public let nvb = FieldSpec("iso14443a.nvb", "NVB", .text, layout: ISO14443ACommand.Layout.nvb)
    public let ppsPps0 = FieldSpec("iso14443a.pps.pps0", "PPS0", .byte, layout: ISO14443ACommand.Layout.pps0)
    public let ppsPps1 = FieldSpec("iso14443a.pps.pps1", "PPS1", .text, layout: ISO14443ACommand.Layout.pps1)
    public let ratsCid = FieldSpec("iso14443a.rats.cid", "CID", .text, layout: ISO14443ACommand.Layout.ratsParameter)
    public let ratsFsdi = FieldSpec("iso14443a.rats.fsdi", "FSDI", .text, layout: ISO14443ACommand.Layout.ratsParameter)
    public let sak = FieldSpec("iso14443a.sak", "SAK", .byte)
    public let sakCascade = FieldSpec("iso14443a.sak.cascade", "b3 UID not complete", .text)
    public let sakIso144434 = FieldSpec("iso14443a.sak.iso14443_4", "b6 ISO/IEC 14443-4", .text)
    public let sakMifare = FieldSpec("iso14443a.sak.mifare", "MIFARE", .text)
    public let sakNfcDep = FieldSpec("iso14443a.sak.nfc_dep", "b7 NFC-DEP", .text)
    public let sakPlatform = FieldSpec("iso14443a.sak.platform", "Platform", .text)
    public let sel = FieldSpec("iso14443a.sel", "SEL", .byte, layout: ISO14443ACommand.Layout.code)
    public let shortFrame = FieldSpec("iso14443a.short_frame", "Short frame", .byte, layout: ISO14443ACommand.Layout.code)
    public let uidBits = FieldSpec("iso14443a.uid_bits", "Known UID bits", .hex)
    public let uidCln = FieldSpec("iso14443a.uid_cln", "UID CLn", .hex)
}

extension FieldSpec {
    /// `iso14443a.*`
    public static let iso14443a = ISO14443AFields()
}
