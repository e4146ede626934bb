import NFCCore

/// A frame's payload and CRC as the dissector describes them (the check itself is NFCCore's
/// `CRCFramed.crcState`, shared with the emulators and the replayer). Every technology's
/// dissector goes through this, so CRCs are described the same way everywhere.
struct CRCSplit {
    var payload: [UInt8]
    var status: CRCStatus
    /// Byte range of the CRC inside the frame, when there is one.
    var range: Range<Int>?

    /// `expected`: whether this kind of frame carries a CRC on air.
    init(_ frame: borrowing Frame, expected: Bool, kind: CRC.Kind) {
        guard expected else {
            payload = frame.bytes
            range = nil
            status = .notExpected
            return
        }
        self = CRCSplit(frame, state: frame.crcState(kind), kind: kind)
    }

    /// The payload and CRC parts for a CRC `state` NFCCore found (`CRCFramed`).
    private init(_ frame: borrowing Frame, state: FrameCRC, kind: CRC.Kind) {
        payload = frame.bytes
        range = nil
        switch state {
        case .stripped: status = .stripped
        case .tooShort: status = .unknown
        case .valid, .mismatch:
            payload = Array(frame.bytesBeforeCRC)
            range = frame.crcRange
            if case .mismatch(let e, let f) = state {
                status = .mismatch(kind, expected: e, found: f)
            } else {
                status = .ok(kind)
            }
        }
    }

    /// A CRC at the end that covers the bytes from `start` on (iClass reader frames leave the
    /// opcode out); the payload is the frame without it.
    init(_ frame: borrowing Frame, kind: CRC.Kind, coveringFrom start: Int) {
        self = CRCSplit(frame, state: frame.crcState(kind, coveringFrom: start), kind: kind)
    }

    /// For frames of unknown kind: a valid CRC at the end is taken as one, otherwise none is claimed.
    init(unknownFrame frame: borrowing Frame, kind: CRC.Kind) {
        if frame.hasValidCRC(kind) {
            self.init(frame, expected: true, kind: kind)
        } else {
            self.init(frame, expected: false, kind: kind)
            status = frame.crcStripped ? .stripped : .unknown
        }
    }

    /// Adds the CRC field and, on mismatch, the diagnostic that names the expected value.
    /// `decrypted`: `frame` is a MIFARE Classic frame in clear, whose CRC was checked after
    /// decryption (the bytes on air under the field's range are encrypted).
    func describe(_ frame: Frame, into sink: inout FieldSink, diagnostics: inout [Diagnostic], field: FieldSpec, decrypted: Bool = false) {
        switch status {
        case .ok(let kind):
            if let r = range {
                sink.add(Field(field, label: decrypted ? kind.decryptedFieldLabel : kind.fieldLabel, .hex(frame.bytes[r], suffix: " (correct)"), range: r))
            }
        case .mismatch(let kind, let expected, let found):
            sink.add(Field(field, label: decrypted ? kind.decryptedFieldLabel : kind.fieldLabel, "\(Hex.string(found)) (wrong, expected \(Hex.string(expected)))", range: range))
            diagnostics.append(Diagnostic(.warning, "\(kind.rawValue) mismatch, expected \(Hex.string(expected))", range: range))
        case .stripped:
            sink.add(Field(field, "not captured (removed by the capture hardware)"))
        case .unknown, .notExpected:
            break
        }
    }
}

extension CRC.Kind {
    /// The CRC field's label: the kind's name as a literal.
    var fieldLabel: FieldName {
        switch self {
        case .a: return "CRC_A"
        case .b: return "CRC_B"
        case .felica: return "CRC_F"
        case .iclass: return "CRC_iClass"
        }
    }

    /// The label of a CRC checked on decrypted bytes (MIFARE Classic): the value is the clear CRC.
    var decryptedFieldLabel: FieldName {
        switch self {
        case .a: return "CRC_A (decrypted)"
        default: return FieldName(fieldLabel.text + " (decrypted)")
        }
    }
}
