import CLibNFC
import NFCCore
import NFCReplay

/// A real reader through libnfc (`replay --against libnfc[:CONNSTRING]`): every reader frame of
/// the trace goes on air as recorded, with `nfc_initiator_transceive_bits` for a short frame and
/// `_bytes` otherwise. libnfc's conveniences are off (no easy framing, no automatic ISO 14443-4,
/// no CRC handling): the trace's own REQA, anticollision, SELECT, RATS and blocks are sent with
/// the CRC they carry (added for a trace whose capture dropped CRCs) and the answers come back as
/// on air (their CRC dropped again for such a trace); parity is the chip's. Silence (a timeout)
/// is an answer too.
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

    private func set(_ property: nfc_property, _ on: Bool) throws(ReplayTargetError) {
        guard nfc_device_set_property_bool(device, property, on) >= 0 else {
            throw ReplayTargetError("libnfc: \(name): setting a device property failed: \(String(cString: nfc_strerror(device)))")
        }
    }

    public func fieldOn() throws(ReplayTargetError) { try set(NP_ACTIVATE_FIELD, true) }
    public func fieldOff() throws(ReplayTargetError) { try set(NP_ACTIVATE_FIELD, false) }

    public func transmit(_ frame: Frame) throws(ReplayTargetError) -> Frame? {
        guard frame.technology == .iso14443a else {
            throw ReplayTargetError("libnfc target: \(frame.technology.displayName) frames cannot be sent raw yet (ISO 14443-A only)")
        }
        // The bytes as on air: a trace whose capture dropped CRCs gets them back where one belongs.
        // A whole byte alone is an ISO-DEP R- or S-block then (REQA and WUPA have 7 bits).
        let stripped = frame.crcStripped && frame.lastByteBits == 8
            && (frame.bytes.count == 1 || ISO14443ACommand.carriesCRC(frame.bytes, lastByteBits: frame.lastByteBits))
        let payload = stripped ? CRC.appending(.a, to: frame.bytes) : frame.bytes
        var answer = [UInt8](repeating: 0, count: 300)
        let received: Int32
        if frame.lastByteBits != 8 {
            let bits = (payload.count - 1) * 8 + Int(frame.lastByteBits)
            received = payload.withUnsafeBufferPointer { tx in
                answer.withUnsafeMutableBufferPointer { rx in nfc_initiator_transceive_bits(device, tx.baseAddress, bits, nil, rx.baseAddress, rx.count, nil) }
            }
        } else {
            received = payload.withUnsafeBufferPointer { tx in
                answer.withUnsafeMutableBufferPointer { rx in nfc_initiator_transceive_bytes(device, tx.baseAddress, tx.count, rx.baseAddress, rx.count, 200) }
            }
        }
        guard received > 0 else {
            // A timeout is the tag's silence; anything else is the reader failing.
            if received == NFC_ETIMEOUT || received == NFC_ERFTRANS || received == NFC_ECHIP { return nil }
            throw ReplayTargetError("libnfc: \(name): \(String(cString: nfc_strerror(device))) (\(received))")
        }
        var reply: Frame
        if frame.lastByteBits != 8 {
            // transceive_bits counts bits: a 4-bit ACK/NAK, or whole bytes.
            let bits = Int(received)
            reply = Frame(.data(.tagToReader), technology: frame.technology, bytes: Array(answer.prefix((bits + 7) / 8)), lastByteBits: UInt8(bits % 8 == 0 ? 8 : bits % 8))
        } else {
            reply = Frame(.data(.tagToReader), technology: frame.technology, bytes: Array(answer.prefix(Int(received))))
        }
        if frame.crcStripped { _ = reply.stripValidCRC() }
        return reply
    }
}
