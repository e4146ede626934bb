import NFCCore

/// An ISO/IEC 14443-B PICC rebuilt from a trace: it answers REQB/WUPB (and Slot-MARKER) with its
/// ATQB, ATTRIB naming its PUPI with its recorded answer, then runs the ISO-DEP block protocol
/// (`ISODEPLayer`) around the recorded APDU exchanges; HLTB halts it until WUPB. An ST SRx card
/// answers INITIATE/PCALL16 with its Chip_ID, SELECT, GET UID and READ_BLK from the blocks seen,
/// keeps WRITE_BLK data, and stays silent after COMPLETION until the field goes off. Requests and
/// answers go through the codecs (`ISO14443BCommand`, `ATQB`, `ATTRIBAnswer`, `SRxCommand`); every
/// frame carries CRC_B, and a frame whose CRC is wrong gets no answer.
public final class ISO14443BCard: EmulatedTag {
    public let technology = Technology.iso14443b
    public let reconstruction: ISO14443BReconstruction
    private let layer: ISODEPLayer
    private var halted = false
    private var isoDEPActive = false
    private var selected = false
    private var deactivated = false
    private var blocks: [UInt8: [UInt8]]

    public init(reconstruction: ISO14443BReconstruction) {
        self.reconstruction = reconstruction
        self.blocks = reconstruction.blocks
        layer = ISODEPLayer(application: RecordedAPDUApplication(reconstruction.exchanges))
    }

    public var summary: String { Self.summary(of: reconstruction) }

    static func summary(of r: ISO14443BReconstruction) -> String {
        if let atqb = r.atqb.flatMap({ try? ATQB.decode($0) }) { return "ISO 14443-B card, PUPI \(Hex.string(atqb.pupi))" }
        if let bytes = r.uid {
            let uid = SRxUID(bytes: bytes)
            return "\(uid.model?.name ?? "ST SRx card"), UID \(Hex.string(uid.printed))"
        }
        return "ST SRx card, Chip_ID \(r.chipID.map(Hex.byte) ?? "?")"
    }

    public func savedDump() -> [UInt8]? { nil }
    public func fieldOn() { powerReset() }
    public func fieldOff() { powerReset() }

    private func powerReset() {
        halted = false
        isoDEPActive = false
        selected = false
        deactivated = false
        blocks = reconstruction.blocks
        layer.reset()
    }

    public func respond(to frame: Frame) -> Frame? {
        guard case .data(.readerToTag) = frame.event, frame.technology == .iso14443b, !deactivated,
              let p = frame.payload(ifValidCRC: .b) else { return nil }
        let payload = Array(p)
        if let command = try? ISO14443BCommand.decode(payload) { return typeB(command, to: frame) }
        if isoDEPActive {
            guard let (reply, deselected) = layer.handle(payload) else { return nil }
            if deselected {
                isoDEPActive = false
                halted = true
            }
            return answer(reply, to: frame)
        }
        if let command = try? SRxCommand.decode(payload) { return srx(command, to: frame) }
        return nil
    }

    private func typeB(_ command: ISO14443BCommand, to frame: Frame) -> Frame? {
        guard let atqbBytes = reconstruction.atqb, let atqb = try? ATQB.decode(atqbBytes) else { return nil }
        switch command {
        case .request(_, let param):
            guard !halted || param & ISO14443BCommand.wakeUpBit != 0 else { return nil }
            halted = false
            isoDEPActive = false
            return answer(atqb.encode(), to: frame)
        case .slotMarker:
            return halted || isoDEPActive ? nil : answer(atqb.encode(), to: frame)
        case .attrib(let a):
            guard a.pupi == atqb.pupi, !halted else { return nil }
            let reply = reconstruction.attribAnswer.flatMap { try? ATTRIBAnswer.decode($0) } ?? ATTRIBAnswer(mbli: 0, cid: a.cid)
            layer.reset()
            layer.fsd = ISO14443B.frameSize(code: a.maximumFrameSizeCode) ?? 256
            isoDEPActive = true
            return answer(reply.encode(), to: frame)
        case .halt(let pupi):
            guard pupi == atqb.pupi else { return nil }
            halted = true
            isoDEPActive = false
            return answer([ISO14443B.haltAnswer], to: frame)
        }
    }

    private func srx(_ command: SRxCommand, to frame: Frame) -> Frame? {
        guard let chip = reconstruction.chipID else { return nil }
        switch command {
        case .initiate, .pcall16:
            selected = false
            return answer(SRxAnswer.chipID(chip).encode(), to: frame)
        case .slotMarker:
            return nil
        case .select(let id):
            selected = id == chip
            return selected ? answer(SRxAnswer.chipID(chip).encode(), to: frame) : nil
        case .getUID:
            guard selected, let uid = reconstruction.uid else { return nil }
            return answer(SRxAnswer.uid(SRxUID(bytes: uid)).encode(), to: frame)
        case .readBlock(let a):
            guard selected, let data = blocks[a] else { return nil }
            return answer(SRxAnswer.block(data).encode(), to: frame)
        case .writeBlock(let a, let data):
            if selected { blocks[a] = data }
            return nil
        case .completion:
            if selected { deactivated = true }
            return nil
        case .resetToInventory:
            selected = false
            return nil
        case .authenticate:
            return nil   // the signature needs the card's secret: not in a trace
        }
    }
}

/// A Type B or ST SRx card rebuilt from a trace (`replay --against emulator`, `emulate --from-trace`).
public struct ISO14443BDump: TagDumpContent {
    public var reconstruction: ISO14443BReconstruction
    public init(reconstruction: ISO14443BReconstruction) { self.reconstruction = reconstruction }
    public var summary: String { ISO14443BCard.summary(of: reconstruction) }
    public var notes: [String] {
        var n: [String] = []
        if !reconstruction.exchanges.isEmpty { n.append("it answers the \(reconstruction.exchanges.count) recorded command APDUs with the recorded answers, anything else with 6D00") }
        if !reconstruction.blocks.isEmpty { n.append("\(reconstruction.blocks.count) blocks as the trace read them; others are not answered") }
        return n
    }
    public func makeTag() -> EmulatedTag? { ISO14443BCard(reconstruction: reconstruction) }
}
