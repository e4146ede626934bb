import NFCCore

/// The reader's half of activation, over any way of sending a frame to a tag: ISO/IEC 14443-3
/// REQA/anticollision/SELECT (Type A) and REQB/ATTRIB (Type B), the RATS of 14443-4, and the
/// ISO 15693 inventory a reader looks for a VICC with. The simulated Core NFC session
/// (NFCTestKit) and the PC/SC card front end use it; frames are built with NFCCore's codecs.
/// `ISODEPReaderLink` carries on from here once a tag speaks ISO-DEP.
public enum ReaderActivation {
    /// Sends `payload` (CRC added when `crc`) as `bits` in its last byte; the answer with its CRC
    /// checked and removed when `answerCRC`, nil for silence or a damaged answer.
    public typealias Transceive = (_ payload: [UInt8], _ bits: UInt8, _ crc: Bool, _ answerCRC: Bool) -> (bytes: [UInt8], lastByteBits: UInt8)?

    /// REQA, then ANTICOLLISION and SELECT for each cascade level until the SAK says the UID is
    /// complete. Nil when the tag does not answer as the standard says.
    public static func activate14443A(_ transceive: Transceive) -> ISO14443AActivation? {
        let reqa = ISO14443ACommand.reqa.encode()
        guard let atqaBytes = transceive(reqa.bytes, reqa.lastByteBits, false, false), let atqa = try? ATQA.decode(atqaBytes.bytes) else { return nil }
        var uid: [UInt8] = []
        for level in CascadeLevel.allCases {
            let anticollision = ISO14443ACommand.anticollision(level: level, nvb: NVB(bytes: 2, bits: 0), knownBits: []).encode()
            guard let levelBytes = transceive(anticollision.bytes, 8, false, false),
                  let levelData = try? UIDLevelData.decode(levelBytes.bytes), levelData.bccIsValid else { return nil }
            let select = ISO14443ACommand.select(level: level, uid: levelData).encode()
            guard let sakBytes = transceive(select.bytes, 8, true, true), let sak = try? SAK.decode(sakBytes.bytes) else { return nil }
            uid += levelData.uidBytes
            if !sak.uidIncomplete { return ISO14443AActivation(atqa: atqa, sak: sak, uid: uid) }
        }
        return nil
    }

    /// Inventory in one slot at the high data rate, as readers look for an ISO 15693 VICC.
    public static let inventory15693 = ISO15693Request(
        flags: ISO15693RequestFlags(rawValue: ISO15693RequestFlags.dataRateMask | ISO15693RequestFlags.inventoryMask | ISO15693RequestFlags.b6Mask),
        command: .inventory(afi: nil, maskLength: 0, mask: []))

    /// REQB (AFI 00, one slot), then ATTRIB with the PUPI (FSD 256, the card's protocol type,
    /// CID 0): a 14443-B card made ready for ISO-DEP (ISO/IEC 14443-3 §7.7–7.10). Nil when the
    /// card does not answer as the standard says.
    public static func activate14443B(_ transceive: Transceive) -> (atqb: ATQB, attrib: ATTRIBAnswer)? {
        let reqb = ISO14443BCommand.request(afi: 0x00, param: 0x00).encode()
        guard let answer = transceive(reqb, 8, true, true), let atqb = try? ATQB.decode(answer.bytes) else { return nil }
        let attrib = ISO14443BCommand.attrib(ATTRIB(pupi: atqb.pupi, param2: 0x08, param3: atqb.protocolType)).encode()
        guard let reply = transceive(attrib, 8, true, true), let attribAnswer = try? ATTRIBAnswer.decode(reply.bytes) else { return nil }
        return (atqb, attribAnswer)
    }

    /// RATS (FSD 256, CID 0) and the ATS; nil when the tag gives none.
    public static func requestATS(_ transceive: Transceive) -> ATS? {
        let rats = ISO14443ACommand.rats(fsdi: 8, cid: 0).encode()
        guard let answer = transceive(rats.bytes, 8, true, true) else { return nil }
        return try? ATS.decode(answer.bytes)
    }
}
