import NFCCore

/// A contactless payment card with test data only (the Visa test number 4111 1111 1111 1111),
/// enough for the EMV kernel's first steps (protocols-wave2.md §6.1): SELECT of the PPSE and of
/// its one AID (an FCI long enough that the answer chains), GET PROCESSING OPTIONS (answered
/// after an S(WTX), as phones do) and READ RECORD of SFI 1, record 1. Every answer is built with
/// `BERTLV.encode`; nothing is signed, no cryptogram is computed.
public final class EMVTestCard: APDUApplication {
    public static let aid: [UInt8] = [0xA0, 0x00, 0x00, 0x00, 0x03, 0x10, 0x10]
    /// 4111 1111 1111 1111, expiry 12/2028: a published test number, not a card.
    public static let pan: [UInt8] = [0x41, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11]
    static let pdol: [UInt8] = [0x9F, 0x66, 0x04, 0x9F, 0x02, 0x06, 0x9F, 0x37, 0x04, 0x5F, 0x2A, 0x02]

    private var selected: [UInt8]?

    public init() {}

    public func reset() { selected = nil }

    public func needsTime(_ command: [UInt8]) -> Bool {
        (try? CommandAPDU.decode(command)).map { $0.cla == 0x80 && $0.ins == 0xA8 } ?? false
    }

    static func tlv(_ tag: UInt32, _ value: [UInt8]) -> [UInt8] { BERTLV.encode(tag: tag, value: value) }

    static var ppseFCI: [UInt8] {
        tlv(0x6F, tlv(0x84, EMV.ppse) + tlv(0xA5, tlv(0xBF0C, tlv(0x61, tlv(0x4F, aid) + tlv(0x50, Array("VISA CREDIT".utf8)) + tlv(0x87, [0x01])))))
    }

    /// The application's FCI: label, priority, PDOL, and issuer data long enough (300 bytes) that
    /// the answer takes two ISO-DEP blocks.
    static var applicationFCI: [UInt8] {
        tlv(0x6F, tlv(0x84, aid) + tlv(0xA5, tlv(0x50, Array("VISA CREDIT".utf8)) + tlv(0x87, [0x01]) + tlv(0x9F38, pdol)
            + tlv(0xBF0C, tlv(0x9F7C, Array(String(repeating: "nfctrace EMV test card ", count: 13).utf8)))))
    }

    static var record: [UInt8] {
        tlv(0x70, tlv(0x57, pan + [0xD2, 0x81, 0x22, 0x01, 0x00, 0x00, 0x00, 0x00, 0x0F]) + tlv(0x5A, pan)
            + tlv(0x5F20, Array("TEST/NFCTRACE".utf8)) + tlv(0x5F24, [0x28, 0x12, 0x31]))
    }

    public func execute(_ command: [UInt8]) -> [UInt8] {
        guard let apdu = try? CommandAPDU.decode(command) else { return ResponseAPDU(status: .wrongLength).encode() }
        switch (apdu.cla, apdu.ins) {
        case (0x00, ISO7816Instruction.select) where apdu.p1 == 0x04:
            if apdu.data == EMV.ppse {
                selected = EMV.ppse
                return ResponseAPDU(data: Self.ppseFCI, status: .success).encode()
            }
            if apdu.data == Self.aid {
                selected = Self.aid
                return ResponseAPDU(data: Self.applicationFCI, status: .success).encode()
            }
            selected = nil
            return ResponseAPDU(status: .fileNotFound).encode()
        case (0x80, 0xA8):
            guard selected == Self.aid else { return ResponseAPDU(status: .conditionsNotSatisfied).encode() }
            guard apdu.data.first == 0x83 else { return ResponseAPDU(status: .incorrectData).encode() }
            // AIP: SDA and cardholder verification not supported; AFL: SFI 1, record 1 to 1.
            return ResponseAPDU(data: Self.tlv(0x77, Self.tlv(0x82, [0x00, 0x80]) + Self.tlv(0x94, [0x08, 0x01, 0x01, 0x00])), status: .success).encode()
        case (0x00, ISO7816Instruction.readRecord):
            guard selected == Self.aid else { return ResponseAPDU(status: .conditionsNotSatisfied).encode() }
            guard apdu.p1 == 1, apdu.p2 == 0x0C else { return ResponseAPDU(status: StatusWord(0x6A83)).encode() }
            return ResponseAPDU(data: Self.record, status: .success).encode()
        case (0x00, _), (0x80, _):
            return ResponseAPDU(status: .instructionNotSupported).encode()
        default:
            return ResponseAPDU(status: .classNotSupported).encode()
        }
    }
}

/// The EMV test card as a tag source (`emulate --model emv-test-card`).
public struct EMVTestCardDump: TagDumpContent {
    public var uid: [UInt8]
    public var notes: [String] = []
    public var summary: String { "EMV contactless test card (Visa test number), UID \(Hex.string(uid))" }

    public func makeTag() -> EmulatedTag? {
        ISODEPCard(uid: uid, atqa: ATQA(value: 0x0004), sak: SAK(0x20), ats: ATS(t0: 0x78, ta1: 0x80, tb1: 0x70, tc1: 0x02), application: EMVTestCard(), summary: summary)
    }

    static let builtIns: [BuiltInTag] = [
        BuiltInTag(name: "emv-test-card", description: "EMV contactless test card: PPSE, one Visa AID, GPO after S(WTX), one record; test number 4111 1111 1111 1111") {
            TagDump(EMVTestCardDump(uid: [0x08, 0x12, 0x34, 0x56]))
        },
    ]
}
