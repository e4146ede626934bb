import NFCCore

/// The reader's PN532: the host commands it runs with the card in the field, for ACR122 direct
/// transmit (`FF 00 00 00 Lc D4 …`, `PCSCContactlessCard.transmit`) and for `emulate --pn532`
/// (`PN532SerialServer`).
extension PCSCContactlessCard {
    /// A PN532 command passed through (`D4 code data…`), executed as the chip would with the
    /// card this reader activated; `D5 code+1 …` and `90 00`.
    func directTransmit(_ frame: [UInt8]) -> ResponseAPDU {
        guard let answer = pn532(frame) else { return ResponseAPDU(status: PN532.acr122WrongCommand) }
        return ResponseAPDU(data: answer, status: Self.ok)
    }

    /// One PN532 command (`D4 code data…`) run by this reader's chip with the card in its field:
    /// `D5 code+1 …`, or nil for a command the chip does not have. Shared by ACR122 direct
    /// transmit and `emulate --pn532`, which serves the chip on a serial line.
    public func pn532(_ frame: [UInt8]) -> [UInt8]? {
        guard frame.count >= 2, frame[0] == PN532.hostToChip, let command = PN532.Command(rawValue: frame[1]) else { return nil }
        let data = Array(frame.dropFirst(2))
        func answer(_ body: [UInt8]) -> [UInt8] { [PN532.chipToHost, command.answerCode] + body }
        switch command {
        case .getFirmwareVersion: return answer(PN532.firmwareVersion)
        case .diagnose: return answer(data)
        case .inDataExchange:
            guard data.first == 0x01 else { return answer([PN532.Status.invalidParameter.rawValue]) }
            let (status, out) = dataExchange(Array(data.dropFirst()))
            return answer([status.rawValue] + out)
        case .inCommunicateThru:
            if (registers[PN532.Register.manualRCV] ?? 0) & PN532.Register.parityDisable != 0 { return answer(communicateWithParity(data)) }
            let crcOut = (registers[PN532.Register.txMode] ?? 0) & 0x80 != 0
            let crcIn = (registers[PN532.Register.rxMode] ?? 0) & 0x80 != 0
            let lastBits = (registers[PN532.Register.bitFraming] ?? 0) & 0x07
            guard let reply = transceive(data, lastBits == 0 ? 8 : lastBits, crcOut, crcIn, technology: framing) else { return answer([PN532.Status.timeout.rawValue]) }
            setReceivedLastBits(reply.lastByteBits)
            return answer([PN532.Status.ok.rawValue] + reply.bytes)
        case .inListPassiveTarget:
            return answer(listPassiveTarget(data))
        case .inDeselect, .inRelease, .inSelect:
            return answer([PN532.Status.ok.rawValue])
        case .writeRegister:
            for i in stride(from: 0, to: data.count - data.count % 3, by: 3) { registers[UInt16(data[i]) << 8 | UInt16(data[i + 1])] = data[i + 2] }
            return answer([])
        case .readRegister:
            return answer(stride(from: 0, to: data.count - data.count % 2, by: 2).map { registers[UInt16(data[$0]) << 8 | UInt16(data[$0 + 1])] ?? 0 })
        case .rfConfiguration:
            // Item 01: the RF field (b0 on). On, the host activates the card itself.
            if data.count >= 2, data[0] == 0x01 { if data[1] & 0x01 == 0 { powerOff() } else { fieldUp() } }
            return answer([])
        case .samConfiguration, .setParameters:
            return answer([])
        case .powerDown:
            return answer([PN532.Status.ok.rawValue])
        case .inAutoPoll:
            return answer(autoPoll(data))
        }
    }

    /// Control's RxLastBits (b2…b0): the valid bits of the last byte received, 0 for 8, which
    /// libnfc reads after InCommunicateThru to count the bits of an answer.
    private func setReceivedLastBits(_ bits: UInt8) {
        registers[PN532.Register.control] = (registers[PN532.Register.control] ?? 0) & ~0x07 | (bits == 8 ? 0 : bits & 0x07)
    }

    /// InCommunicateThru with the CIU's parity generation off (ManualRCV ParityDisable): the host
    /// sends bits with a parity bit after each byte (`Parity.wrap`), as a reader inside a MIFARE
    /// Classic session must, and gets the answer's bits the same way. The status byte, then the bits.
    private func communicateWithParity(_ data: [UInt8]) -> [UInt8] {
        let txLastBits = (registers[PN532.Register.bitFraming] ?? 0) & 0x07
        let bits = data.isEmpty ? 0 : (data.count - 1) * 8 + Int(txLastBits == 0 ? 8 : txLastBits)
        let sent = Parity.unwrap(data, bits: bits)
        guard !sent.bytes.isEmpty else { return [PN532.Status.timeout.rawValue] }
        var request = Frame(.data(.readerToTag), technology: framing ?? tag.technology, bytes: sent.bytes, lastByteBits: sent.lastByteBits, start: Timestamp.now())
        if !sent.parity.isEmpty { request.parityErrors = Crypto1.parityErrors(sent: sent.bytes, parity: sent.parity) }
        guard let reply = exchange(request) else { return [PN532.Status.timeout.rawValue] }
        let replyBits = (reply.bytes.count - 1) * 8 + Int(reply.lastByteBits)
        let (stream, count) = Parity.wrap(reply.bytes, parity: Parity.bits(reply.bytes, errors: reply.parityErrors), bits: replyBits)
        setReceivedLastBits(count % 8 == 0 ? 8 : UInt8(count % 8))
        return [PN532.Status.ok.rawValue] + stream
    }

    /// The modulation TxMode's framing bits (b1…b0; PN532 user manual §8.6.23.2) set: ISO 14443-A
    /// (and MIFARE), FeliCa, ISO 14443-B; nil for active mode, which no tag here speaks.
    var framing: Technology? {
        switch (registers[PN532.Register.txMode] ?? 0) & PN532.Register.framingMask {
        case 0x00: return .iso14443a
        case 0x02: return .felica
        case 0x03: return .iso14443b
        default: return nil
        }
    }

    /// InListPassiveTarget sets the CIU for the modulation it lists, as the firmware does.
    func setFraming(_ modulation: PN532.Modulation) {
        let bits: UInt8
        switch modulation {
        case .typeA106, .jewel106: bits = 0x00
        case .felica212, .felica424: bits = 0x02
        case .typeB106: bits = 0x03
        }
        for register in [PN532.Register.txMode, PN532.Register.rxMode] {
            registers[register] = (registers[register] ?? 0) & ~PN532.Register.framingMask | bits
        }
    }

    /// InAutoPoll (`PollNr Period Type…`): the first target type asked for that the card in the
    /// field is; `NbTg`, then `Type Len TargetData` with InListPassiveTarget's data (Tg first).
    private func autoPoll(_ data: [UInt8]) -> [UInt8] {
        for type in data.dropFirst(2) {
            let modulation: PN532.Modulation
            switch type {
            case 0x00, 0x10, 0x20: modulation = .typeA106
            case 0x01, 0x11: modulation = .felica212
            case 0x02, 0x12: modulation = .felica424
            case 0x03, 0x23: modulation = .typeB106
            default: continue
            }
            let initiatorData: [UInt8]
            switch modulation {
            case .typeA106: initiatorData = []
            case .typeB106: initiatorData = [0x00]   // AFI: all families
            default: initiatorData = [0x00, 0xFF, 0xFF, 0x01, 0x00]   // Polling, any system, system code asked for
            }
            let listed = listPassiveTarget([0x01, modulation.rawValue] + initiatorData)
            guard listed.first == 0x01 else { continue }
            let target = Array(listed.dropFirst())
            // The type names what was found: a MIFARE card or an ISO 14443-4 one at 106 A, FeliCa,
            // an ISO 14443-4 card at 106 B.
            let found: UInt8
            switch modulation {
            case .typeA106: found = activation?.ats == nil ? 0x10 : 0x20
            case .felica212: found = 0x11
            case .typeB106: found = 0x23
            default: found = 0x12
            }
            return [0x01, UInt8(found), UInt8(target.count)] + target
        }
        return [0x00]
    }

    /// InListPassiveTarget (one target): the card activated again at the modulation asked for;
    /// `NbTg` then per target `Tg` and what the modulation's activation gave (106 A: SENS_RES most
    /// significant byte first, SEL_RES, NFCID1, the ATS; FeliCa: the Polling answer, length first;
    /// 106 B: the ATQB, then the ATTRIB answer's length and the answer).
    private func listPassiveTarget(_ data: [UInt8]) -> [UInt8] {
        guard data.count >= 2, let modulation = PN532.Modulation(rawValue: data[1]) else { return [0x00] }
        setFraming(modulation)
        switch (modulation, tag.technology) {
        case (.typeA106, .iso14443a):
            powerOff()
            guard powerOn(), let a = activation else { return [0x00] }
            var target: [UInt8] = [0x01, UInt8(a.atqa.value >> 8), UInt8(a.atqa.value & 0xFF), a.sak.raw, UInt8(a.uid.count)] + a.uid
            if let ats = a.ats { target += ats.encode() }
            return [0x01] + target
        case (.typeB106, .iso14443b):
            // The chip sends REQB in the field as it is: a card the host deselected stays silent.
            fieldUp()
            guard activateTypeB(), let b = typeB else { return [0x00] }
            let attrib = b.attrib.encode()
            return [0x01, 0x01] + b.atqb.encode() + [UInt8(attrib.count)] + attrib
        case (.felica212, .felica), (.felica424, .felica):
            // The initiator data is the Polling command without its length byte.
            let polling = Array(data.dropFirst(2))
            if !fieldIsOn { _ = powerOn() }
            guard !polling.isEmpty, let answer = transceive([UInt8(polling.count + 1)] + polling, 8, true, true) else { return [0x00] }
            return [0x01, 0x01] + answer.bytes
        default:
            return [0x00]
        }
    }

    /// InDataExchange: the chip frames ISO-DEP itself, runs MIFARE Classic authentication and
    /// both WRITE phases, and otherwise sends the bytes with their CRC.
    private func dataExchange(_ data: [UInt8]) -> (PN532.Status, [UInt8]) {
        if link != nil { return isoDEPExchange(data).map { (.ok, $0) } ?? (.timeout, []) }
        if let classic {
            defer { forwardClassicFrames() }
            // `60/61 block key(6) uid(4)`: authentication with the key given.
            typealias Code = MIFAREClassicCommand.Code
            if let first = data.first, first == Code.authenticateA.rawValue || first == Code.authenticateB.rawValue, data.count == 12 {
                let key = data[2..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                readerNonce = readerNonce &* 1_103_515_245 &+ 12_345
                return classic.authenticate(first == Code.authenticateA.rawValue ? .a : .b, block: data[1], key: key, nr: readerNonce) ? (.ok, []) : (.mifareAuthenticationError, [])
            }
            // `A0 block data(16)`: both WRITE phases.
            if data.first == Code.write.rawValue, data.count == 18 {
                let ack: [UInt8] = [Type2Acknowledgement.ack.nibble]
                guard classic.send(MIFAREClassicCommand.write(block: data[1]).encode()) == ack,
                      classic.send(MIFAREClassicCommand.writeData(Array(data.dropFirst(2))).encode()) == ack else { return (.timeout, []) }
                return (.ok, [])
            }
            guard let answer = classic.send(data) else { return (.timeout, []) }
            if answer.count == 1 { return answer[0] == Type2Acknowledgement.ack.nibble ? (.ok, []) : (.timeout, []) }
            // The chip checks the answer's CRC (in clear, after Crypto1) and drops it.
            return CRCBytes(answer, kind: .a).payload(ifValidCRC: .a).map { (.ok, Array($0)) } ?? (.crc, [])
        }
        // `A0 page data(16)`: the chip writes in two phases (COMPATIBILITY_WRITE on a Type 2 tag),
        // as for MIFARE Classic.
        if data.first == MIFAREClassicCommand.Code.write.rawValue, data.count == 18 {
            func acked(_ payload: [UInt8]) -> Bool {
                guard let a = transceive(payload, 8, true, false), a.lastByteBits == 4 else { return false }
                return Type2Acknowledgement(nibble: a.bytes.first ?? 0) == .ack
            }
            return acked(Array(data.prefix(2))) && acked(Array(data.dropFirst(2))) ? (.ok, []) : (.timeout, [])
        }
        guard let answer = transceive(data, 8, true, true) else { return (.timeout, []) }
        if answer.lastByteBits == 4 {
            // A 4-bit ACK is the chip's success without data; a NAK no success (libnfc takes
            // any status but 00 as the command failing).
            return Type2Acknowledgement(nibble: answer.bytes.first ?? 0) == .ack ? (.ok, []) : (.timeout, [])
        }
        return (.ok, answer.bytes)
    }
}
