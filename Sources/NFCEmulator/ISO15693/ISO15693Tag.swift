import NFCCore

/// The state of a VICC (ISO/IEC 15693-3:2009 7.5, protocols.md §6.4).
public enum ISO15693VICCState: String, Sendable, Hashable {
    /// No field: the VICC is not powered.
    case powerOff = "Power-off"
    case ready = "Ready"
    /// After Stay Quiet: only addressed, non-inventory requests are processed.
    case quiet = "Quiet"
    /// After Select: requests with the select flag are processed too.
    case selected = "Selected"
}

/// An emulated ISO/IEC 15693 VICC (NFC-V, NFC Forum Type 5) that follows ISO/IEC 15693-3:
/// VICC states, anticollision, addressed / non-addressed / selected requests, block commands
/// with the option flag, AFI and DSFID, system information, error codes, and the NXP custom
/// commands of ICODE configurations. Requests are decoded and answers encoded with the
/// NFCCore codec (`ISO15693RequestHeader`, `ISO15693Request`, `ISO15693Response`).
public final class ISO15693Tag: EmulatedTag {
    public let technology = Technology.iso15693
    public let configuration: ISO15693TagConfiguration
    public internal(set) var memory: ISO15693TagMemory
    public internal(set) var state = ISO15693VICCState.ready
    /// A 16-slot Inventory this VICC answers in a later slot: the reader's EOFs that open the
    /// slots are not frames, so `endOfFrame()` stands for each of them.
    var pendingSlot: (slot: Int, current: Int, response: ISO15693Response, request: Frame)?
    var random: SplitMix64

    /// Nil when the configuration's geometry is not one ISO/IEC 15693-3 can describe; the
    /// memory is sized to the configuration. `randomSeed` makes GET RANDOM NUMBER repeatable.
    public init?(configuration: ISO15693TagConfiguration, memory: ISO15693TagMemory,
                 randomSeed: UInt64 = UInt64.random(in: 0...UInt64.max)) {
        guard configuration.isValid else { return nil }
        self.configuration = configuration
        if memory.blockCount == configuration.blockCount && memory.blockSize == configuration.blockSize {
            self.memory = memory
        } else {
            var m = ISO15693TagMemory(uid: memory.uid, blockCount: configuration.blockCount, blockSize: configuration.blockSize,
                                      dsfid: memory.dsfid, afi: memory.afi, dsfidLocked: memory.dsfidLocked,
                                      afiLocked: memory.afiLocked, failingBlocks: memory.failingBlocks, icode: memory.icode)
            for n in 0..<min(memory.blockCount, m.blockCount) where memory.blockSize == m.blockSize {
                m.setBlock(n, memory.block(n))
                m.setLocked(n, memory.isLocked(n))
            }
            self.memory = m
        }
        random = SplitMix64(seed: randomSeed)
    }

    public var summary: String {
        "\(configuration.name), UID \(memory.uid), \(memory.blockCount) blocks × \(memory.blockSize) bytes"
    }

    public func savedDump() -> [UInt8]? {
        Array(ISO15693Dumps.flipperText(ISO15693Dump(configuration: configuration, memory: memory)).utf8)
    }

    /// Field on: the VICC powers up in the Ready state (ISO/IEC 15693-3 7.5.2).
    public func fieldOn() {
        state = .ready
        pendingSlot = nil
    }

    /// Field off: power-off; Quiet and Selected are volatile and lost (7.5.1).
    public func fieldOff() {
        state = .powerOff
        pendingSlot = nil
    }

    /// How the request reached this VICC (ISO/IEC 15693-3 7.2).
    enum Mode: Equatable {
        case addressed, nonAddressed, selected
    }

    public func respond(to frame: Frame) -> Frame? {
        guard case .data(.readerToTag) = frame.event, frame.technology == .iso15693 else { return nil }
        pendingSlot = nil
        // A VICC that detects a transmission error (CRC) stays silent (NXP ICODE SLI-S
        // datasheet §8.4.1, "according to ISO/IEC 15693").
        guard let p = frame.payload(ifValidCRC: .b) else { return nil }
        let payload = Array(p)
        // A frame means the field is on, even when the trace did not say so.
        if state == .powerOff { state = .ready }
        guard let header = try? ISO15693RequestHeader.decode(payload) else { return nil }
        let flags = header.flags
        // Protocol extension flag: none of our configurations extends the format; the VICC does
        // not answer (NXP ICODE SLI-S datasheet §8.4.2.2).
        if flags.protocolExtension { return nil }
        if flags.inventory {
            // Only the inventory commands take the inventory flag; other requests with it get no
            // answer, not even an error (§8.4.2.2); a quiet VICC ignores inventories (7.5.3).
            guard header.code == ISO15693CommandCode.inventory.rawValue, state != .quiet,
                  let request = try? ISO15693Request.decode(payload),
                  case .inventory(let afi, let maskLength, let mask) = request.command else { return nil }
            return inventory(afi: afi, maskLength: maskLength, mask: mask, oneSlot: flags.oneSlot, frame: frame)
        }
        guard let mode = mode(of: header) else { return nil }
        // Custom commands carry the IC manufacturer code: another manufacturer's command is not
        // for this VICC, which stays silent (Flipper iso15693_3_listener_handle_custom_request,
        // ChameleonMini ISO15693PrepareFrame).
        if let maker = header.manufacturer, maker != memory.uid.manufacturerCode { return nil }
        let request: ISO15693Request
        do {
            request = try ISO15693Request.decode(payload)
        } catch {
            return reply(.error(.commandNotRecognised), mode: mode, to: frame)
        }
        return execute(request, mode: mode, frame: frame)
    }

    /// Which mode a non-inventory request reaches this VICC in, or nil when it is not for it.
    private func mode(of header: ISO15693RequestHeader) -> Mode? {
        let flags = header.flags
        // "The request can be either addressed or selected, not both" (7.3.1 Table 5: with the
        // select flag, the address flag shall be 0); Flipper ignores such requests too.
        if flags.select && flags.address { return nil }
        if flags.address {
            // Proprietary commands have no known UID position: this VICC cannot tell it is meant.
            guard let uid = header.uid else { return nil }
            guard uid == memory.uid else {
                // A selected VICC that receives a Select for another UID returns to Ready, silently
                // (protocols.md §6.4, 10.4.6).
                if header.code == ISO15693CommandCode.select.rawValue, state == .selected { state = .ready }
                return nil
            }
            return .addressed   // any state, Quiet included (7.5.3)
        }
        if flags.select { return state == .selected ? .selected : nil }
        // Non-addressed requests are for every VICC in the field but a quiet one (7.2.2, 7.5.3).
        return state == .quiet ? nil : .nonAddressed
    }

    /// The answer of one request: a response, an error, or nothing.
    enum Outcome {
        case answer(ISO15693Response)
        case error(ISO15693ErrorCode)
        case silence
    }

    /// Sends the outcome as the configuration's error style wants it; `afterEOF` marks answers
    /// a real VICC sends only after the reader's EOF (write-alike commands with the option flag).
    func reply(_ outcome: Outcome, mode: Mode, afterEOF: Bool = false, to frame: Frame) -> Frame? {
        let response: ISO15693Response
        switch outcome {
        case .silence:
            return nil
        case .answer(let r):
            response = r
        case .error(let code):
            switch configuration.errorStyle {
            case .detailed:
                response = .error(code)
            case .unspecified:
                if mode == .nonAddressed { return nil }
                response = .error(.unknownError)
            }
        }
        var out = answer(response.encode(), to: frame)
        if afterEOF { out.comment = "sent after the reader's EOF (option flag on a write-alike command, ISO/IEC 15693-3)" }
        return out
    }

    // MARK: anticollision

    private func inventory(afi: UInt8?, maskLength: UInt8, mask: [UInt8], oneSlot: Bool, frame: Frame) -> Frame? {
        // AFI flag: only VICCs of the requested family answer (ISO/IEC 15693-3 AFI coding).
        if let afi, !ISO15693Anticollision.afiSelects(requested: afi, vicc: memory.afi) { return nil }
        guard let slot = ISO15693Anticollision.slot(of: memory.uid, maskLength: maskLength, mask: mask, oneSlot: oneSlot) else {
            return nil
        }
        let response = ISO15693Response(body: .inventory(dsfid: memory.dsfid, uid: memory.uid))
        if slot == 0 { return answer(response.encode(), to: frame) }
        pendingSlot = (slot, 0, response, frame)
        return nil
    }

    /// The reader's EOF that opens the next slot of a 16-slot Inventory (an EOF is no frame, so
    /// a replayer or reader model calls this for each one): the answer when this VICC's slot
    /// comes, else nil. Any other request cancels the inventory.
    public func endOfFrame() -> Frame? {
        guard let p = pendingSlot else { return nil }
        let next = p.current + 1
        if next == p.slot {
            pendingSlot = nil
            return answer(p.response.encode(), to: p.request)
        }
        pendingSlot = next >= 15 ? nil : (p.slot, next, p.response, p.request)
        return nil
    }
}
