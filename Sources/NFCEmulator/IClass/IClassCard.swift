import NFCCore

/// An iClass / PicoPass card rebuilt from a trace: IDENTIFY answers the anticollision CSN,
/// SELECT of it (or of the CSN) the CSN, READCHECK the e-purse, READ/READ4 the blocks seen,
/// UPDATE stores and echoes the block; a CHECK the trace showed gets the card MAC it got then
/// (computing one needs the card's key); HALT, ACTALL and ACT are answered by a bare SOF, which
/// is no frame here. Requests are decoded and answers encoded with `IClassCommand`; the iClass
/// CRC is checked where a request carries one, and answers that carry one get it over all their
/// bytes from the frame's own `setPayload`.
public final class IClassCard: EmulatedTag {
    public let technology = Technology.iclass
    public let reconstruction: IClassReconstruction
    private var blocks: [UInt8: [UInt8]]
    private var selected = false

    public init(reconstruction: IClassReconstruction) {
        self.reconstruction = reconstruction
        blocks = reconstruction.blocks
    }

    public var summary: String { "iClass / PicoPass, CSN \(Hex.string(reconstruction.csn))" }
    public func savedDump() -> [UInt8]? { nil }
    public func fieldOn() { reset() }
    public func fieldOff() { reset() }

    private func reset() {
        selected = false
        blocks = reconstruction.blocks
    }

    public func respond(to frame: Frame) -> Frame? {
        guard case .data(.readerToTag) = frame.event, frame.technology == .iclass else { return nil }
        var bytes = frame.bytes
        if !frame.crcStripped, IClass.readerFrameCarriesCRC(length: bytes.count) {
            // Reader frames of these lengths end in a CRC over all but the opcode.
            guard let payload = frame.payload(ifValidCRC: .iclass, coveringFrom: IClass.crcStart(fromReader: true)) else { return nil }
            bytes = Array(payload)
        }
        guard let command = try? IClassCommand.decode(bytes) else { return nil }
        let csn = reconstruction.csn
        switch command {
        case .identify:
            return answer(IClass.anticollisionCSN(csn), crc: true, to: frame)
        case .select(let asked):
            selected = asked == IClass.anticollisionCSN(csn) || asked == csn
            return selected ? answer(csn, crc: true, to: frame) : nil
        case .read(let b):
            guard selected, let data = blocks[b] else { return nil }
            return answer(data, crc: true, to: frame)
        case .read4(let b):
            guard selected else { return nil }
            let four = (0..<4).compactMap { blocks[b &+ UInt8($0)] }
            return four.count == 4 ? answer(four.flatMap { $0 }, crc: true, to: frame) : nil
        case .readCheck:
            guard selected, let epurse = blocks[IClass.epurseBlock] else { return nil }
            return answer(epurse, crc: false, to: frame)
        case .check:
            guard selected, let mac = reconstruction.checks[command.encode()] else { return nil }
            return answer(mac, crc: false, to: frame)
        case .update(let b, let data, _):
            guard selected else { return nil }
            blocks[b] = data
            return answer(data, crc: true, to: frame)
        case .pageSelect:
            guard selected, let config = blocks[IClass.configurationBlock] else { return nil }
            return answer(config, crc: true, to: frame)
        case .halt:
            selected = false
            return nil
        case .actall, .act, .detect:
            return nil
        }
    }
}

/// An iClass card rebuilt from a trace.
public struct IClassDump: TagDumpContent {
    public var reconstruction: IClassReconstruction
    public init(reconstruction: IClassReconstruction) { self.reconstruction = reconstruction }
    public var summary: String { "iClass / PicoPass, CSN \(Hex.string(reconstruction.csn))" }
    public var notes: [String] {
        ["\(reconstruction.blocks.count) blocks as the trace read them; CHECK is answered only with the MACs the trace showed (no keys here)"]
    }
    public func makeTag() -> EmulatedTag? { IClassCard(reconstruction: reconstruction) }
}
