#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibNFC
import NFCCore
import NFCReplay

/// A real reader through libnfc (`replay --against libnfc[:CONNSTRING]`): every reader frame of
/// the trace goes on air as recorded, with `nfc_initiator_transceive_bits` for a short frame and
/// `_bytes` otherwise. libnfc's conveniences are off (no easy framing, no automatic ISO 14443-4,
/// no CRC handling): the trace's own REQA, anticollision, SELECT, RATS and blocks are sent with
/// the CRC they carry (added for a trace whose capture dropped CRCs) and the answers come back as
/// on air (their CRC dropped again for such a trace). Parity is the chip's, except inside a MIFARE
/// Classic session, where the trace's encrypted parity bits go on air. FeliCa and ISO 14443-B need
/// the chip at their modulation first, which only InListPassiveTarget sets: a Polling, or a
/// REQB (whose ATTRIB the chip then makes itself), goes through it. Silence (a timeout) is an
/// answer too.
public final class LibNFCTarget: ReplayTarget {
    public let name: String
    private var context: OpaquePointer?
    private let device: OpaquePointer

    /// `connstring` as libnfc names devices (`pn532_uart:/dev/ttyUSB0`); nil for its default
    /// (`LIBNFC_DEVICE`, then the first device found).
    public init(connstring: String?) throws(ReplayTargetError) {
        nfc_init(&context)
        guard let context else { throw ReplayTargetError("libnfc: cannot initialise (nfc_init failed)") }
        let opened: OpaquePointer? = connstring.map { c in nfc_open(context, c) } ?? nfc_open(context, nil)
        guard let opened else {
            nfc_exit(context)
            throw ReplayTargetError("libnfc: no device" + (connstring.map { " at \"\($0)\"" } ?? "") + " (nfc-list shows what libnfc finds; LIBNFC_DEVICE or libnfc:CONNSTRING names one)")
        }
        device = opened
        name = "libnfc:" + String(cString: nfc_device_get_connstring(opened))
        guard nfc_initiator_init(opened) >= 0 else {
            let why = String(cString: nfc_strerror(opened))
            nfc_close(opened)
            nfc_exit(context)
            throw ReplayTargetError("libnfc: cannot make \(name) an initiator: \(why)")
        }
        for (property, on) in [(NP_EASY_FRAMING, false), (NP_AUTO_ISO14443_4, false), (NP_HANDLE_CRC, false), (NP_HANDLE_PARITY, true), (NP_ACCEPT_INVALID_FRAMES, true)] {
            try set(property, on)
        }
    }

    deinit {
        nfc_close(device)
        if let context { nfc_exit(context) }
    }

    public var answersCarryCRC: Bool { true }

    /// The devices libnfc finds (those LIBNFC_DEVICE and its configuration name first, then what
    /// its drivers' scans find), as connstrings; nil when libnfc cannot start.
    public static func devices() -> [String]? {
        // The scans of absent buses log errors of their own; the listing says what it found.
        setenv("LIBNFC_LOG_LEVEL", "0", 0)
        var context: OpaquePointer?
        nfc_init(&context)
        guard let context else { return nil }
        defer { nfc_exit(context) }
        let capacity = 16
        let found = UnsafeMutablePointer<nfc_connstring>.allocate(capacity: capacity)
        defer { found.deallocate() }
        let n = nfc_list_devices(context, found, capacity)
        return (0..<min(n, capacity)).map { i in
            withUnsafeBytes(of: &found[i]) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
    }

    /// ISO 14443-A frames go raw; FeliCa and 14443-B frames too once a Polling or REQB selected
    /// the card at its modulation. A PN53x has no ISO 15693 (nor iClass).
    public func inexpressible(_ frame: Frame, number: Int) -> String? {
        switch frame.technology {
        case .iso14443a, .felica: return nil
        case .iso14443b:
            // Only a REQB puts the chip at type B's modulation (ST SRx cards start with INITIATE,
            // which libnfc sends only inside its own selection of them).
            if case .request? = try? ISO14443BCommand.decode(Array(frame.payloadDroppingValidCRC())) {
                typeBRequested = true
                return nil
            }
            return typeBRequested ? nil : "a 14443-B frame before any REQB: libnfc puts the chip at type B's modulation only by selecting a card with REQB"
        default: return "a frame of \(frame.technology.displayName): a PN53x has no such modulation"
        }
    }

    /// How long a frame may take to be answered, in milliseconds, when the trace has no times:
    /// the frame waiting time the card's ATS announced (ISO/IEC 14443-4 §7.2: 256 × 16 / fc ×
    /// 2^FWI) once it gave one, as a reader waits; before, 50 ms (an activation or Type 2 answer
    /// comes within a millisecond). Both with 50 ms for the host link (USB, a serial line).
    private var timeoutMilliseconds: Int32 = 100

    /// From the trace's timing (`RecordedTiming.answerDelays`, set before the replay): trace frame
    /// number → how long the recorded tag took (or the recorded reader waited). A frame gets four
    /// times that, plus 50 ms for the host link, and never less than the FWT rule above.
    public var recordedDelays: [Int: Double] = [:]
    private var frameNumber = 0

    private var currentTimeout: Int32 {
        guard let delay = recordedDelays[frameNumber] else { return timeoutMilliseconds }
        return max(timeoutMilliseconds, Int32(min(5.0, 4 * delay) * 1000) + 50)
    }

    static func timeout(fwi: UInt8) -> Int32 {
        let fwtMicroseconds = 302 << Int(min(fwi, 14))
        return Int32(50 + (fwtMicroseconds + 999) / 1000)
    }

    /// Whether a FeliCa or 14443-B card was selected since the field came on (the PN53x then runs
    /// at its modulation).
    private var felicaSelected = false
    private var typeBSelected = false
    /// The check before the replay saw a REQB.
    private var typeBRequested = false

    /// Inside a MIFARE Classic session the parity bits are encrypted too: from the first AUTH's
    /// nonce on, frames go with the parity the trace recorded (`Frame.parityErrors`) and the
    /// chip's parity generation off (`NP_HANDLE_PARITY`), until the field goes or a REQA/WUPA
    /// starts over.
    private var classicSession = false

    private func setClassicSession(_ on: Bool) throws(ReplayTargetError) {
        guard on != classicSession else { return }
        try set(NP_HANDLE_PARITY, !on)
        classicSession = on
    }

    private func set(_ property: nfc_property, _ on: Bool) throws(ReplayTargetError) {
        guard nfc_device_set_property_bool(device, property, on) >= 0 else {
            throw ReplayTargetError("libnfc: \(name): setting a device property failed: \(String(cString: nfc_strerror(device)))")
        }
    }

    public func fieldOn() throws(ReplayTargetError) {
        felicaSelected = false
        typeBSelected = false
        try setClassicSession(false)
        timeoutMilliseconds = 100
        try set(NP_ACTIVATE_FIELD, true)
    }

    public func fieldOff() throws(ReplayTargetError) { try set(NP_ACTIVATE_FIELD, false) }

    /// A FeliCa Polling through InListPassiveTarget (libnfc's only way to put the chip at 212 or
    /// 424 kbit/s): the answer rebuilt from what libnfc decoded of it, as on air.
    private func felicaPolling(_ frame: Frame, payload: [UInt8]) throws(ReplayTargetError) -> Frame? {
        let modulation = nfc_modulation(nmt: NMT_FELICA, nbr: frame.bitRate == 424 ? NBR_424 : NBR_212)
        var target = nfc_target()
        // The initiator data is the Polling command without its length byte.
        let data = Array(payload.dropFirst())
        let found = data.withUnsafeBufferPointer { nfc_initiator_select_passive_target(device, modulation, $0.baseAddress, $0.count, &target) }
        guard try checked(found, silence: [0, NFC_ETIMEOUT]) != nil else { return nil }
        felicaSelected = true
        let info = target.nti.nfi
        var answer = [UInt8(truncatingIfNeeded: info.szLen), info.btResCode]
        answer += withUnsafeBytes(of: info.abtId) { Array($0) } + withUnsafeBytes(of: info.abtPad) { Array($0) }
        if info.szLen > 18 { answer += withUnsafeBytes(of: info.abtSysCode) { Array($0) } }
        var reply = Frame(.data(.tagToReader), technology: .felica, crcStripped: frame.crcStripped)
        reply.setPayload(answer, crc: true)
        return reply
    }

    /// REQB/WUPB through InListPassiveTarget at 106 kbit/s type B: the ATQB rebuilt from what
    /// libnfc decoded of it. The chip sends ATTRIB itself; the trace's ATTRIB is then the reader's.
    private func typeBRequest(_ frame: Frame, payload: [UInt8]) throws(ReplayTargetError) -> Frame? {
        var target = nfc_target()
        let afi = Array(payload.dropFirst().prefix(1))
        let found = afi.withUnsafeBufferPointer { nfc_initiator_select_passive_target(device, nfc_modulation(nmt: NMT_ISO14443B, nbr: NBR_106), $0.baseAddress, $0.count, &target) }
        guard try checked(found, silence: [0, NFC_ETIMEOUT]) != nil else { return nil }
        typeBSelected = true
        let info = target.nti.nbi
        let atqb = ATQB(pupi: withUnsafeBytes(of: info.abtPupi) { Array($0) }, applicationData: withUnsafeBytes(of: info.abtApplicationData) { Array($0) },
                        protocolInfo: withUnsafeBytes(of: info.abtProtocolInfo) { Array($0) })
        var reply = Frame(.data(.tagToReader), technology: .iso14443b, crcStripped: frame.crcStripped)
        reply.setPayload(atqb.encode(), crc: true)
        return reply
    }

    /// libnfc's count (bytes, bits, targets) when positive; nil for a code in `silence` (the tag
    /// did not answer); any other code is the reader failing.
    private func checked(_ result: Int32, silence: [Int32]) throws(ReplayTargetError) -> Int? {
        if result > 0 { return Int(result) }
        if silence.contains(result) { return nil }
        throw ReplayTargetError("libnfc: \(name): \(String(cString: nfc_strerror(device))) (\(result))")
    }

    /// A timeout, an RF transmission error, a chip error: the tag's silence.
    private static let silentTransceive: [Int32] = [NFC_ETIMEOUT, NFC_ERFTRANS, NFC_ECHIP]

    /// An answer of `bits` bits (transceive_bits counts bits: a 4-bit ACK/NAK, or whole bytes).
    private static func answer(_ buffer: [UInt8], bits: Int, technology: Technology) -> Frame {
        Frame(.data(.tagToReader), technology: technology, bytes: Array(buffer.prefix((bits + 7) / 8)), lastByteBits: UInt8(bits % 8 == 0 ? 8 : bits % 8))
    }

    public func exchange(_ frame: Frame, number: Int) throws(ReplayTargetError) -> TargetAnswer {
        frameNumber = number
        if frame.technology == .iso14443b, typeBSelected, frame.payloadDroppingValidCRC().first == ISO14443BCommand.Code.attrib.rawValue {
            return .byReader("ATTRIB (the PN53x's InListPassiveTarget made it)")
        }
        return .frame(try transmit(frame))
    }

    public func transmit(_ frame: Frame) throws(ReplayTargetError) -> Frame? {
        if let why = inexpressible(frame, number: 0) { throw ReplayTargetError("libnfc target: \(why)") }
        if frame.technology == .felica {
            let payload = Array(frame.payloadDroppingValidCRC())
            if payload.count > 1, FeliCaCode(payload[1]) == .polling { return try felicaPolling(frame, payload: payload) }
            guard felicaSelected else { throw ReplayTargetError("libnfc target: a FeliCa command before any Polling: the chip is not at FeliCa's bit rate") }
        }
        if frame.technology == .iso14443b {
            let payload = Array(frame.payloadDroppingValidCRC())
            if case .request? = try? ISO14443BCommand.decode(payload) { return try typeBRequest(frame, payload: payload) }
            guard typeBSelected else { throw ReplayTargetError("libnfc target: a 14443-B frame before any REQB: the chip is not at type B's modulation") }
        }
        // The bytes as on air: a trace whose capture dropped CRCs gets them back where one belongs.
        // A whole byte alone is an ISO-DEP R- or S-block then (REQA and WUPA have 7 bits).
        let stripped = frame.crcStripped && frame.lastByteBits == 8
            && (frame.technology != .iso14443a || frame.bytes.count == 1 || ISO14443ACommand.carriesCRC(frame.bytes, lastByteBits: frame.lastByteBits))
        let payload = stripped ? CRCBytes(payload: frame.bytes, kind: frame.crcKind).bytes : frame.bytes
        let plain = Array(frame.payloadDroppingValidCRC())
        if frame.technology == .iso14443a, plain.count == 1, frame.lastByteBits == 7 { try setClassicSession(false) }   // REQA/WUPA
        var answer = [UInt8](repeating: 0, count: 300)
        let received: Int32
        let bits = (payload.count - 1) * 8 + Int(frame.lastByteBits)
        if classicSession {
            // Parity on air as recorded; the answer's parity bits come back beside it.
            let parity = Parity.bits(payload, errors: frame.parityErrors)
            var answerParity = [UInt8](repeating: 0, count: answer.count)
            received = payload.withUnsafeBufferPointer { tx in
                parity.withUnsafeBufferPointer { txPar in
                    answer.withUnsafeMutableBufferPointer { rx in
                        answerParity.withUnsafeMutableBufferPointer { rxPar in
                            nfc_initiator_transceive_bits(device, tx.baseAddress, bits, txPar.baseAddress, rx.baseAddress, rx.count, rxPar.baseAddress)
                        }
                    }
                }
            }
            guard let count = try checked(received, silence: Self.silentTransceive) else { return nil }
            var reply = Self.answer(answer, bits: count, technology: frame.technology)
            if reply.lastByteBits == 8 { reply.parityErrors = Crypto1.parityErrors(sent: reply.bytes, parity: Array(answerParity.prefix(reply.bytes.count))) }
            return reply
        }
        if frame.lastByteBits != 8 {
            received = payload.withUnsafeBufferPointer { tx in
                answer.withUnsafeMutableBufferPointer { rx in nfc_initiator_transceive_bits(device, tx.baseAddress, bits, nil, rx.baseAddress, rx.count, nil) }
            }
        } else {
            received = payload.withUnsafeBufferPointer { tx in
                answer.withUnsafeMutableBufferPointer { rx in nfc_initiator_transceive_bytes(device, tx.baseAddress, tx.count, rx.baseAddress, rx.count, currentTimeout) }
            }
        }
        guard let count = try checked(received, silence: Self.silentTransceive) else { return nil }
        var reply = frame.lastByteBits != 8 ? Self.answer(answer, bits: count, technology: frame.technology)
            : Frame(.data(.tagToReader), technology: frame.technology, bytes: Array(answer.prefix(count)))
        if frame.crcStripped { _ = reply.stripValidCRC() }
        if frame.technology == .iso14443a, case .rats? = try? ISO14443ACommand.decode(plain),
           let ats = try? ATS.decode(Array(reply.payloadDroppingValidCRC())) {
            timeoutMilliseconds = Self.timeout(fwi: ats.fwi)
        }
        // A plain AUTH answered by a 4-byte nonce opens a Classic session (MF1S50 §10.3).
        if frame.technology == .iso14443a, plain.count == 2, let code = MIFAREClassicCommand.Code(rawValue: plain[0]),
           code == .authenticateA || code == .authenticateB, reply.bytes.count == 4 {
            try setClassicSession(true)
        }
        return reply
    }
}
