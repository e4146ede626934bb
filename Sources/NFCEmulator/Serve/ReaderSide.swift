import NFCCore

/// What a reader learnt of a 14443-A tag while activating it.
public struct ISO14443AActivation: Sendable, Hashable {
    public var atqa: ATQA
    public var sak: SAK
    public var uid: [UInt8]
    public var ats: ATS?
    /// GET_VERSION's answer on a Type 2 tag (nil when not asked or NAKed).
    public var version: [UInt8]?

    public init(atqa: ATQA, sak: SAK, uid: [UInt8], ats: ATS? = nil, version: [UInt8]? = nil) {
        self.atqa = atqa
        self.sak = sak
        self.uid = uid
        self.ats = ats
        self.version = version
    }

    /// The largest frame the tag takes (FSC from the ATS), CRC included.
    public var frameSize: Int { ISO14443ACommand.frameSize(forIndex: (ats?.t0 ?? 0x02) & 0x0F) }
}

/// The reader's half of ISO/IEC 14443-3 and -4, over any way of sending a frame to a tag: the
/// simulated Core NFC session (NFCTestKit) and the PC/SC card front end use it. Frames are built
/// with NFCCore's `ISO14443ACommand` and `ISODEPFrame`.
public enum ReaderSide {
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

/// Why an ISO-DEP exchange failed on the reader's side.
public struct ISODEPLinkError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// The reader's ISO-DEP block protocol (ISO/IEC 14443-4): I-blocks with the block number
/// toggled, commands chained when they do not fit the tag's frame size, the tag's chaining
/// acknowledged with R(ACK), its WTX requests granted.
public struct ISODEPReaderLink: Sendable {
    public var blockNumber: UInt8 = 0
    /// The largest frame the tag accepts (FSC), CRC included.
    public var frameSize: Int

    public init(frameSize: Int) { self.frameSize = frameSize }

    /// One block out, the tag's block back (CRC handled by `send`).
    public typealias SendBlock = ([UInt8]) throws -> [UInt8]

    /// A whole INF (an APDU, a native command) out, the whole answer back.
    public mutating func exchange(_ inf: [UInt8], send: SendBlock) throws -> [UInt8] {
        let room = max(1, frameSize - 3)
        var rest = inf[...]
        var answer: ISODEPFrame
        repeat {
            let part = Array(rest.prefix(room))
            rest = rest.dropFirst(part.count)
            answer = try block(ISODEPFrame(.i(chaining: !rest.isEmpty, cidFollows: false, nadFollows: false, blockNumber: blockNumber), inf: part), send)
            if !rest.isEmpty {
                guard case .r(false, _, _) = answer.block else { throw ISODEPLinkError("the tag did not acknowledge a chained block") }
                blockNumber ^= 1
            }
        } while !rest.isEmpty
        var out: [UInt8] = []
        while true {
            guard case .i(let chaining, _, _, _) = answer.block else { throw ISODEPLinkError("the tag answered with no I-block") }
            out += answer.inf
            blockNumber ^= 1
            guard chaining else { return out }
            answer = try block(ISODEPFrame(.r(nak: false, cidFollows: false, blockNumber: blockNumber)), send)
        }
    }

    /// Sends one block; answers the tag's WTX requests until it answers for real.
    private func block(_ frame: ISODEPFrame, _ send: SendBlock) throws -> ISODEPFrame {
        var reply = try Self.decode(send(frame.encode()))
        while case .s(.wtx, _) = reply.block {
            reply = try Self.decode(send(ISODEPFrame(.s(kind: .wtx, cidFollows: false), inf: reply.inf).encode()))
        }
        return reply
    }

    static func decode(_ bytes: [UInt8]) throws -> ISODEPFrame {
        do { return try ISODEPFrame.decode(bytes) } catch { throw ISODEPLinkError("the tag's block is malformed: \(error)") }
    }

    /// The S(DESELECT) a reader ends an ISO-DEP session with.
    public static var deselect: [UInt8] { ISODEPFrame(.s(kind: .deselect, cidFollows: false)).encode() }
}
