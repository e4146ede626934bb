/// ISO/IEC 14443-3 Type B activation (REQB/WUPB, Slot-MARKER, ATQB, ATTRIB, HLTB) and the
/// ST short-range cards that share its air interface (SRI512, SRT512, SRI2K, SRI4K, SRIX4K,
/// ST25TB). Every frame carries CRC_B; payloads here exclude it. Sources: ISO/IEC 14443-3 §7,
/// ST's SRI/SRIX and ST25TB datasheets; the Proxmark3 names them in `annotateIso14443b`.
public enum ISO14443BCommand: Sendable, Hashable {
    /// REQB (`PARAM` b4 = 0) or WUPB (b4 = 1): `05 AFI PARAM`.
    case request(afi: UInt8, param: UInt8)
    /// Slot-MARKER `APn`: `(n − 1) << 4 | 05`, slot n = 2…16.
    case slotMarker(slot: Int)
    /// ATTRIB `1D PUPI Param1 Param2 Param3 Param4 [higher-layer INF]`.
    case attrib(ATTRIB)
    /// HLTB `50 PUPI`.
    case halt(pupi: [UInt8])

    public enum Code: UInt8, Sendable {
        case request = 0x05
        case attrib = 0x1D
        case halt = 0x50
    }

    public enum Layout {
        public static let code = FieldLayout(0, 1, "command code")
        public static let afi = FieldLayout(1, 1, "AFI")
        public static let param = FieldLayout(2, 1, "PARAM")
        public static let pupi = FieldLayout(1, 4, "PUPI (4 bytes)")
        public static let param1 = FieldLayout(5, 1, "Param 1")
        public static let param2 = FieldLayout(6, 1, "Param 2")
        public static let param3 = FieldLayout(7, 1, "Param 3")
        public static let param4 = FieldLayout(8, 1, "Param 4")
        /// ATTRIB's higher-layer INF: from here to the end.
        public static let higherLayerStart = 9
    }

    /// The REQB/WUPB PARAM bits.
    public static let wakeUpBit: UInt8 = 0x08
    public static let extendedATQBBit: UInt8 = 0x10

    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> ISO14443BCommand {
        var c = ByteCursor(payload)
        let code = try c.readUInt8(Layout.code)
        switch code {
        case Code.request.rawValue:
            let afi = try c.readUInt8(Layout.afi)
            let param = try c.readUInt8(Layout.param)
            try c.expectEnd("REQB/WUPB (05 AFI PARAM)")
            return .request(afi: afi, param: param)
        case Code.attrib.rawValue:
            let pupi = try c.readBytes(Layout.pupi)
            let p1 = try c.readUInt8(Layout.param1)
            let p2 = try c.readUInt8(Layout.param2)
            let p3 = try c.readUInt8(Layout.param3)
            let p4 = try c.readUInt8(Layout.param4)
            return .attrib(ATTRIB(pupi: pupi, param1: p1, param2: p2, param3: p3, param4: p4, higherLayer: c.readRest()))
        case Code.halt.rawValue:
            let pupi = try c.readBytes(Layout.pupi)
            try c.expectEnd("HLTB (50 PUPI)")
            return .halt(pupi: pupi)
        case let apn where apn & 0x0F == 0x05 && apn != 0x05:
            try c.expectEnd("Slot-MARKER (one byte)")
            return .slotMarker(slot: Int(apn >> 4) + 1)
        default:
            throw c.error("REQB/WUPB (05), Slot-MARKER (x5), ATTRIB (1D) or HLTB (50)", found: Hex.byte(code))
        }
    }

    /// The command a first byte names, for a frame too damaged to decode (the Proxmark3 names
    /// them by that byte alone); nil for no ISO 14443-3 B command code.
    public static func name(ofCode code: UInt8) -> String? {
        switch code {
        case Code.request.rawValue: return "REQB/WUPB"
        case Code.attrib.rawValue: return "ATTRIB"
        case Code.halt.rawValue: return "HLTB"
        case let apn where apn & 0x0F == 0x05: return "Slot-MARKER"
        default: return nil
        }
    }

    public func encode() -> [UInt8] {
        var w = PayloadWriter()
        switch self {
        case .request(let afi, let param):
            w.put(Code.request.rawValue, Layout.code); w.put(afi, Layout.afi); w.put(param, Layout.param)
        case .slotMarker(let slot):
            w.put(UInt8(truncatingIfNeeded: (slot - 1) << 4) | 0x05, Layout.code)
        case .attrib(let a):
            w.put(Code.attrib.rawValue, Layout.code); w.put(a.pupi, Layout.pupi)
            w.put(a.param1, Layout.param1); w.put(a.param2, Layout.param2); w.put(a.param3, Layout.param3); w.put(a.param4, Layout.param4)
            return w.bytes + a.higherLayer
        case .halt(let pupi):
            w.put(Code.halt.rawValue, Layout.code); w.put(pupi, Layout.pupi)
        }
        return w.bytes
    }

    public var name: String {
        switch self {
        case .request(_, let param): return param & Self.wakeUpBit != 0 ? "WUPB" : "REQB"
        case .slotMarker: return "Slot-MARKER"
        case .attrib: return "ATTRIB"
        case .halt: return "HLTB"
        }
    }

    /// REQB/WUPB PARAM b1…b3: N = 1, 2, 4, 8, 16 slots; 5…7 RFU (nil).
    public static func slotCount(param: UInt8) -> Int? {
        let n = Int(param & 0x07)
        return n <= 4 ? 1 << n : nil
    }
}

/// ISO/IEC 14443-3 §7.10: the reader's choice of timings, rates, frame size and CID.
public struct ATTRIB: Sendable, Hashable {
    public var pupi: [UInt8]
    public var param1: UInt8
    public var param2: UInt8
    public var param3: UInt8
    public var param4: UInt8
    public var higherLayer: [UInt8]

    public init(pupi: [UInt8], param1: UInt8 = 0, param2: UInt8 = 0x08, param3: UInt8 = 0x01, param4: UInt8 = 0, higherLayer: [UInt8] = []) {
        self.pupi = pupi
        self.param1 = param1
        self.param2 = param2
        self.param3 = param3
        self.param4 = param4
        self.higherLayer = higherLayer
    }

    /// Param 1 b7…b8: minimum TR0 (0 = default 64/fs); b5…b6 TR1; b4 EOF suppressed; b3 SOF suppressed.
    public var tr0: UInt8 { param1 >> 6 }
    public var tr1: UInt8 { (param1 >> 4) & 0x03 }
    public var suppressesEOF: Bool { param1 & 0x08 != 0 }
    public var suppressesSOF: Bool { param1 & 0x04 != 0 }
    /// Param 2 b7…b8: PICC → PCD rate divisor code; b5…b6: PCD → PICC; b1…b4: the reader's
    /// maximum frame size code (FSDI).
    public var tagToReaderRate: Int { ISO14443B.bitRate(code: param2 >> 6) }
    public var readerToTagRate: Int { ISO14443B.bitRate(code: (param2 >> 4) & 0x03) }
    public var maximumFrameSizeCode: UInt8 { param2 & 0x0F }
    /// Param 3 b1…b4: the protocol type the reader confirms (b1 = ISO/IEC 14443-4).
    public var protocolType: UInt8 { param3 & 0x0F }
    /// Param 4 b1…b4: the CID the card takes.
    public var cid: UInt8 { param4 & 0x0F }
}

/// ATQB: `50 PUPI(4) ApplicationData(4) ProtocolInfo(3, or 4 when extended)`.
public struct ATQB: Sendable, Hashable {
    public var pupi: [UInt8]
    public var applicationData: [UInt8]
    public var protocolInfo: [UInt8]

    public static let code: UInt8 = 0x50

    public enum Layout {
        public static let code = FieldLayout(0, 1, "ATQB code 50")
        public static let pupi = FieldLayout(1, 4, "PUPI (4 bytes)")
        public static let applicationData = FieldLayout(5, 4, "application data (4 bytes)")
        public static let afi = FieldLayout(5, 1, "AFI")
        public static let aidCRC = FieldLayout(6, 2, "CRC_B(AID)")
        public static let applicationCount = FieldLayout(8, 1, "number of applications")
        public static let bitRates = FieldLayout(9, 1, "bit rate capability")
        public static let frameSizeAndType = FieldLayout(10, 1, "max frame size and protocol type")
        public static let fwiADCFO = FieldLayout(11, 1, "FWI, ADC, FO")
        public static let sfgi = FieldLayout(12, 1, "SFGI (extended ATQB)")
    }

    public init(pupi: [UInt8], applicationData: [UInt8], protocolInfo: [UInt8]) {
        self.pupi = pupi
        self.applicationData = applicationData
        self.protocolInfo = protocolInfo
    }

    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> ATQB {
        var c = ByteCursor(payload)
        let code = try c.readUInt8(Layout.code)
        guard code == Self.code else { throw DecodeError(offset: 0, expected: "ATQB code 50", found: Hex.byte(code)) }
        let pupi = try c.readBytes(Layout.pupi)
        let app = try c.readBytes(Layout.applicationData)
        var info = [try c.readUInt8(Layout.bitRates), try c.readUInt8(Layout.frameSizeAndType), try c.readUInt8(Layout.fwiADCFO)]
        if c.remaining > 0 { info.append(try c.readUInt8(Layout.sfgi)) }
        try c.expectEnd("ATQB (12 or 13 bytes)")
        return ATQB(pupi: pupi, applicationData: app, protocolInfo: info)
    }

    public func encode() -> [UInt8] {
        var w = PayloadWriter()
        w.put(Self.code, Layout.code); w.put(pupi, Layout.pupi); w.put(applicationData, Layout.applicationData)
        return w.bytes + protocolInfo
    }

    public var afi: UInt8 { applicationData.first ?? 0 }
    public var applicationCount: UInt8 { applicationData.count > 3 ? applicationData[3] : 0 }
    /// CRC_B(AID), from the application data (its place in the table, relative to that field).
    public var aidCRC: [UInt8] {
        Array(applicationData[Layout.aidCRC.range(at: -Layout.applicationData.offset).clamped(to: applicationData.indices)])
    }
    public var bitRateCapability: UInt8 { protocolInfo.first ?? 0 }
    /// Protocol info byte 2 b5…b8: FSCI, the card's maximum frame size code.
    public var maximumFrameSizeCode: UInt8 { protocolInfo.count > 1 ? protocolInfo[1] >> 4 : 0 }
    /// b1…b4: protocol type; b1 = ISO/IEC 14443-4 compliant, b2…b3 minimum TR2.
    public var protocolType: UInt8 { protocolInfo.count > 1 ? protocolInfo[1] & 0x0F : 0 }
    public var supportsISODEP: Bool { protocolType & 0x01 != 0 }
    /// Byte 3 b5…b8: FWI; b3…b4 ADC; b2 NAD supported; b1 CID supported.
    public var fwi: UInt8 { protocolInfo.count > 2 ? protocolInfo[2] >> 4 : 4 }
    public var adc: UInt8 { protocolInfo.count > 2 ? (protocolInfo[2] >> 2) & 0x03 : 0 }
    public var supportsNAD: Bool { protocolInfo.count > 2 && protocolInfo[2] & 0x02 != 0 }
    public var supportsCID: Bool { protocolInfo.count > 2 && protocolInfo[2] & 0x01 != 0 }
    public var sfgi: UInt8? { protocolInfo.count > 3 ? protocolInfo[3] >> 4 : nil }
}

/// The answer to ATTRIB: `MBLI|CID` then the card's higher-layer answer.
public struct ATTRIBAnswer: Sendable, Hashable {
    public var mbli: UInt8
    public var cid: UInt8
    public var higherLayer: [UInt8]

    public enum Layout {
        public static let mbliCID = FieldLayout(0, 1, "MBLI and CID")
        public static let higherLayerStart = 1
    }

    public init(mbli: UInt8, cid: UInt8, higherLayer: [UInt8] = []) {
        self.mbli = mbli
        self.cid = cid
        self.higherLayer = higherLayer
    }

    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> ATTRIBAnswer {
        var c = ByteCursor(payload)
        let b = try c.readUInt8(Layout.mbliCID)
        return ATTRIBAnswer(mbli: b >> 4, cid: b & 0x0F, higherLayer: c.readRest())
    }

    public func encode() -> [UInt8] { [mbli << 4 | cid & 0x0F] + higherLayer }
}

public enum ISO14443B {
    /// Rate codes of ATTRIB Param 2 (and the ATQB capability bits): 106 × 2^code kbit/s.
    public static func bitRate(code: UInt8) -> Int { 106 << Int(code & 0x03) }

    /// FSCI/FSDI → bytes, ISO/IEC 14443-4's table (the one RATS uses); codes above 8 are RFU
    /// in ATQB and ATTRIB (nil).
    public static func frameSize(code: UInt8) -> Int? {
        code <= 8 ? ISO14443ACommand.frameSize(forIndex: code) : nil
    }

    /// The answer to HLTB: one byte `00`.
    public static let haltAnswer: UInt8 = 0x00
    public static let haltAnswerLayout = FieldLayout(0, 1, "HLTB answer 00")
}

// MARK: - ST SRx / ST25TB

/// ST's short-range 14443-B cards (SRI512, SRT512, SRI2K, SRI4K, SRIX4K, ST25TB): their own
/// anticollision and block commands, every frame with CRC_B (SRI/SRIX and ST25TB datasheets).
public enum SRxCommand: Sendable, Hashable {
    /// `06 00`: every card in the field answers its random Chip_ID.
    case initiate
    /// `06 04`: each card answers in one of 16 slots.
    case pcall16
    /// `(n << 4) | 06`, n = 1…15: the slot after PCALL16.
    case slotMarker(slot: UInt8)
    /// `0E Chip_ID`: selects the card with that Chip_ID.
    case select(chipID: UInt8)
    /// `0B`: the 64-bit UID, least significant byte first.
    case getUID
    /// `08 address` → 4 bytes, least significant first.
    case readBlock(address: UInt8)
    /// `09 address data(4)`: no answer.
    case writeBlock(address: UInt8, data: [UInt8])
    /// `0F`: the card leaves the protocol until the field goes off.
    case completion
    /// `0C`: back to the inventory state.
    case resetToInventory
    /// `0A random(6)` (SRIX4K anti-clone authentication) → a 3-byte signature.
    case authenticate(random: [UInt8])

    public enum Code: UInt8, Sendable {
        case initiateOrPcall = 0x06
        case select = 0x0E
        case getUID = 0x0B
        case readBlock = 0x08
        case writeBlock = 0x09
        case completion = 0x0F
        case resetToInventory = 0x0C
        case authenticate = 0x0A
    }

    public enum Layout {
        public static let code = FieldLayout(0, 1, "command code")
        public static let initiateParameter = FieldLayout(1, 1, "00 (INITIATE) or 04 (PCALL16)")
        public static let chipID = FieldLayout(1, 1, "Chip_ID")
        public static let address = FieldLayout(1, 1, "block address")
        public static let data = FieldLayout(2, 4, "block data (4 bytes)")
        public static let random = FieldLayout(1, 6, "random number (6 bytes)")
    }

    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> SRxCommand {
        var c = ByteCursor(payload)
        let code = try c.readUInt8(Layout.code)
        let command: SRxCommand
        switch code {
        case Code.initiateOrPcall.rawValue:
            let p = try c.readUInt8(Layout.initiateParameter)
            switch p {
            case 0x00: command = .initiate
            case 0x04: command = .pcall16
            default: throw DecodeError(offset: 1, expected: "00 (INITIATE) or 04 (PCALL16)", found: Hex.byte(p))
            }
        case let s where s & 0x0F == 0x06: command = .slotMarker(slot: s >> 4)
        case Code.select.rawValue: command = .select(chipID: try c.readUInt8(Layout.chipID))
        case Code.getUID.rawValue: command = .getUID
        case Code.readBlock.rawValue: command = .readBlock(address: try c.readUInt8(Layout.address))
        case Code.writeBlock.rawValue:
            let a = try c.readUInt8(Layout.address)
            command = .writeBlock(address: a, data: try c.readBytes(Layout.data))
        case Code.completion.rawValue: command = .completion
        case Code.resetToInventory.rawValue: command = .resetToInventory
        case Code.authenticate.rawValue: command = .authenticate(random: try c.readBytes(Layout.random))
        default: throw c.error("an SRx command (06, x6, 0E, 0B, 08, 09, 0F, 0C, 0A)", found: Hex.byte(code))
        }
        try c.expectEnd(command.name)
        return command
    }

    public func encode() -> [UInt8] {
        var w = PayloadWriter()
        switch self {
        case .initiate: w.put(Code.initiateOrPcall.rawValue, Layout.code); w.put(0x00, Layout.initiateParameter)
        case .pcall16: w.put(Code.initiateOrPcall.rawValue, Layout.code); w.put(0x04, Layout.initiateParameter)
        case .slotMarker(let n): w.put(n << 4 | 0x06, Layout.code)
        case .select(let id): w.put(Code.select.rawValue, Layout.code); w.put(id, Layout.chipID)
        case .getUID: w.put(Code.getUID.rawValue, Layout.code)
        case .readBlock(let a): w.put(Code.readBlock.rawValue, Layout.code); w.put(a, Layout.address)
        case .writeBlock(let a, let d): w.put(Code.writeBlock.rawValue, Layout.code); w.put(a, Layout.address); w.put(d, Layout.data)
        case .completion: w.put(Code.completion.rawValue, Layout.code)
        case .resetToInventory: w.put(Code.resetToInventory.rawValue, Layout.code)
        case .authenticate(let r): w.put(Code.authenticate.rawValue, Layout.code); w.put(r, Layout.random)
        }
        return w.bytes
    }

    /// The Proxmark3's names.
    public var name: String {
        switch self {
        case .initiate: return "INITIATE"
        case .pcall16: return "PCALL16"
        case .slotMarker(let n): return "SLOT_MARKER(\(n))"
        case .select: return "SELECT"
        case .getUID: return "GET UID"
        case .readBlock(let a): return "READ_BLK(\(a))"
        case .writeBlock(let a, _): return "WRITE_BLK(\(a))"
        case .completion: return "COMPLETION"
        case .resetToInventory: return "RESET_TO_INVENTORY"
        case .authenticate: return "AUTHENTICATE"
        }
    }

    /// The answer's length, or nil when the card stays silent.
    public var answerLength: Int? { SRxAnswer.layout(answering: self)?.width }
}

/// An ST SRx card's answer (CRC_B excluded), decoded against the command it answers: nothing
/// in the answer says what it is (SRI/SRIX and ST25TB datasheets, command set).
public enum SRxAnswer: Sendable, Hashable {
    /// INITIATE, PCALL16, SLOT_MARKER and SELECT: the card's Chip_ID.
    case chipID(UInt8)
    /// GET UID: 8 bytes, least significant first.
    case uid(SRxUID)
    /// READ_BLK: 4 bytes, least significant first.
    case block([UInt8])
    /// AUTHENTICATE (SRIX4K): a 3-byte signature.
    case signature([UInt8])

    public enum Layout {
        public static let chipID = FieldLayout(0, 1, "Chip_ID")
        public static let uid = FieldLayout(0, 8, "UID (8 bytes, least significant first)")
        public static let block = FieldLayout(0, 4, "block data (4 bytes)")
        public static let signature = FieldLayout(0, 3, "signature (3 bytes)")
    }

    /// The one field of the answer to `command`; nil when the card stays silent.
    public static func layout(answering command: SRxCommand) -> FieldLayout? {
        switch command {
        case .initiate, .pcall16, .slotMarker, .select: return Layout.chipID
        case .getUID: return Layout.uid
        case .readBlock: return Layout.block
        case .authenticate: return Layout.signature
        case .writeBlock, .completion, .resetToInventory: return nil
        }
    }

    public static func decode(_ payload: [UInt8], answering command: SRxCommand) throws(DecodeError) -> SRxAnswer {
        guard let field = layout(answering: command) else {
            throw DecodeError(offset: 0, expected: "no answer to \(command.name)", found: "\(payload.count) bytes")
        }
        var c = ByteCursor(payload)
        let value = try c.readBytes(field)
        try c.expectEnd("the answer to \(command.name)")
        switch field {
        case Layout.uid: return .uid(SRxUID(bytes: value))
        case Layout.block: return .block(value)
        case Layout.signature: return .signature(value)
        default: return .chipID(value.first ?? 0)
        }
    }

    public func encode() -> [UInt8] {
        var w = PayloadWriter()
        switch self {
        case .chipID(let id): w.put(id, Layout.chipID)
        case .uid(let uid): w.put(uid.bytes, Layout.uid)
        case .block(let data): w.put(data, Layout.block)
        case .signature(let data): w.put(data, Layout.signature)
        }
        return w.bytes
    }
}

/// What a UID of an ST SRx card says: `D0 02` then the product code (UID bytes 7, 6, 5 when
/// written most significant first; the card sends them last).
public struct SRxUID: Sendable, Hashable {
    /// As sent: least significant byte first.
    public var bytes: [UInt8]
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// Where the UID's parts sit as sent (least significant first): the product code, then
    /// ST's manufacturer code `02` and the `D0` prefix last.
    public enum Layout {
        public static let productCode = FieldLayout(5, 1, "product code")
        public static let manufacturer = FieldLayout(6, 1, "manufacturer code 02 (ST)")
        public static let prefix = FieldLayout(7, 1, "UID prefix D0")
    }

    /// Most significant first, as printed on datasheets (`D0 02 …`).
    public var printed: [UInt8] { bytes.reversed() }
    public var isST: Bool {
        bytes.count == SRxAnswer.Layout.uid.width && bytes[Layout.prefix.offset] == 0xD0 && bytes[Layout.manufacturer.offset] == 0x02
    }

    /// Block count (without the system block 255) and name, from the product code.
    public var model: (name: String, blocks: Int)? {
        guard isST else { return nil }
        let code = bytes[Layout.productCode.offset]
        switch code {
        case 0x1B: return ("ST25TB512-AC", 16)
        case 0x33: return ("ST25TB512-AT", 16)
        case 0x3F: return ("ST25TB02K", 64)
        case 0x1F: return ("ST25TB04K", 128)
        default: break
        }
        switch code >> 2 {
        case 0x02: return ("SR176", 16)
        case 0x03: return ("SRIX4K", 128)
        case 0x04: return ("SRIX512", 16)
        case 0x06: return ("SRI512", 16)
        case 0x07: return ("SRI4K", 128)
        case 0x0C: return ("SRT512", 16)
        case 0x0F: return ("SRI2K", 64)
        default: return nil
        }
    }

    /// The system block (OTP lock bits, ST reserved), address 255.
    public static let systemBlock: UInt8 = 0xFF
}

// MARK: - Other cards on the Type B air interface

/// Commands of other cards that ride on ISO 14443-B, named as the Proxmark3 names them (its
/// `protocols.h` and `annotateIso14443b`/`annotateCryptoRF`); only the opcode is public, so only
/// the opcode is read.
public enum ISO14443BProprietary {
    /// Atmel CryptoRF (AT88SCxxxxCRF), channel 1, after ATTRIB of a card whose ATQB says it is
    /// not ISO/IEC 14443-4.
    public static let cryptoRF: [UInt8: String] = [
        0x11: "SET USER ZONE", 0x12: "READ USER ZONE", 0x13: "WRITE USER ZONE", 0x14: "WRITE SYSTEM ZONE",
        0x16: "READ SYSTEM ZONE", 0x18: "VERIFY CRYPTO", 0x19: "SEND CHECKSUM", 0x1A: "DESELECT", 0x1B: "IDLE",
        0x1C: "CHECK PASSWORD",
    ]

    /// ASK C-ticket (CTS256/512): whole-byte codes, and codes whose high nibble names the command.
    public static let askCTS: [UInt8: String] = [0x10: "REQT", 0x0F: "IDENTIFY", 0x9F: "SELECT", 0xF0: "DESACTIVATE"]
    public static let askCTSByNibble: [UInt8: String] = [0x1: "MULTREAD", 0x3: "UPDATE", 0x5: "WRITE", 0x6: "READ"]
    /// REQT: the first frame of an ASK C-ticket conversation.
    public static let askRequest: UInt8 = 0x10

    /// The Proxmark3's own Type B test frames (one PM3 reading another).
    public static let proxmark3: [UInt8: String] = [0xBA: "PING", 0xAB: "PONG"]

    /// An ASK C-ticket command's name by its opcode.
    public static func askName(_ code: UInt8) -> String? {
        askCTS[code] ?? askCTSByNibble[code >> 4].map { "\($0)(\(code & 0x0F))" }
    }
}
