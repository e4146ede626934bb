import NFCCore

/// LINKTYPE_ISO_14443 (264): a 4-byte pseudo-header (version 0, event, big-endian length)
/// before each frame (notes/wireshark-interop.md §1.1). Unlike tshark, which drops records
/// with a bad header silently, nfctrace turns them into `.malformed` frames with the reason.
public enum ISO14443PseudoHeader {
    public static let linkType: Int32 = 264

    public enum Event: UInt8, Sendable, CaseIterable {
        case dataTagToReader = 0xFF
        case dataReaderToTag = 0xFE
        case fieldOff = 0xFD
        case fieldOn = 0xFC
        case dataTagToReaderCRCDropped = 0xFB
        case dataReaderToTagCRCDropped = 0xFA
    }

    /// Turns a pcap record into a frame; never fails, bad headers become `.malformed`.
    /// `wireLength` is the record's original length (larger than the record when the capture's
    /// snapshot length cut it).
    public static func decode(_ record: UnsafeRawBufferPointer, wireLength: Int, technology: Technology) -> Frame {
        let bytes = record.bindMemory(to: UInt8.self)
        var (frame, payload) = header(bytes, wireLength: wireLength, technology: technology)
        frame.bytes = Array(UnsafeBufferPointer(rebasing: bytes[payload]))
        return frame
    }

    /// The frame a record holds but for its bytes, and where they are in the record (for a
    /// malformed record, all of it): `decode`, and the writers' check of what they wrote.
    static func header(_ bytes: UnsafeBufferPointer<UInt8>, wireLength: Int, technology: Technology) -> (Frame, Range<Int>) {
        func malformed(_ reason: String) -> (Frame, Range<Int>) {
            (Frame(.malformed(reason: reason), technology: technology), 0..<bytes.count)
        }
        guard bytes.count >= 4 else {
            return malformed("record of \(bytes.count) byte\(bytes.count == 1 ? "" : "s") is shorter than the 4-byte ISO 14443 pseudo-header")
        }
        guard bytes[0] == 0 else { return malformed("pseudo-header version \(bytes[0]), expected 0") }
        guard let event = Event(rawValue: bytes[1]) else {
            return malformed("pseudo-header event \(Hex.byte(bytes[1])) is none of FA…FF")
        }
        let payloadCount = bytes.count - 4
        let be = Int(bytes[2]) << 8 | Int(bytes[3])
        if be != payloadCount {
            let le = Int(bytes[3]) << 8 | Int(bytes[2])
            if le == payloadCount {
                return malformed("length field looks little-endian: \(Hex.string(bytes[2...3])) read big-endian is \(be), the record holds \(payloadCount) bytes")
            }
            if wireLength > bytes.count, be == wireLength - 4 {
                return malformed("record cut by the capture's snapshot length: \(payloadCount) of \(be) bytes captured")
            }
            return malformed("length field says \(be) byte\(be == 1 ? "" : "s"), the record holds \(payloadCount)")
        }
        // The event and CRC flag per case, one construction for all of them.
        let kind: Frame.Event
        var crcStripped = false
        switch event {
        case .dataTagToReader: kind = .data(.tagToReader)
        case .dataReaderToTag: kind = .data(.readerToTag)
        case .dataTagToReaderCRCDropped: kind = .data(.tagToReader); crcStripped = true
        case .dataReaderToTagCRCDropped: kind = .data(.readerToTag); crcStripped = true
        case .fieldOn, .fieldOff:
            guard payloadCount == 0 else {
                return malformed("\(event == .fieldOn ? "field-on" : "field-off") event with \(payloadCount) data bytes, expected none")
            }
            kind = event == .fieldOn ? .fieldOn : .fieldOff
        }
        return (Frame(kind, technology: technology, crcStripped: crcStripped), 4..<bytes.count)
    }

    /// The record for a frame, or nil when 264 cannot carry it (other technologies).
    public static func encode(_ frame: Frame) -> [UInt8]? {
        let event: Event
        switch frame.event {
        case .malformed: return frame.bytes
        case .fieldOn: event = .fieldOn
        case .fieldOff: event = .fieldOff
        case .data(let d):
            guard frame.technology == .iso14443a || frame.technology == .iso14443b else { return nil }
            switch (d, frame.crcStripped) {
            case (.readerToTag, false): event = .dataReaderToTag
            case (.readerToTag, true): event = .dataReaderToTagCRCDropped
            case (.tagToReader, false): event = .dataTagToReader
            case (.tagToReader, true): event = .dataTagToReaderCRCDropped
            }
        }
        let payload = frame.event == .fieldOn || frame.event == .fieldOff ? [] : frame.bytes
        guard payload.count <= PcapEncapsulation.frameLimit else { return nil }
        return [0x00, event.rawValue, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload
    }
}

/// LINKTYPE_ISO_14443 does not say whether a frame is Type A or Type B. Frames with a CRC tell
/// by it (CRC_A and CRC_B differ: a frame whose CRC_B is right and CRC_A wrong is Type B);
/// REQA/WUPA are Type A; frames without a CRC (ATQA, anticollision, 4-bit ACK) and frames whose
/// CRC the capture removed keep the technology of the frame before them. `--tech` skips this.
struct ISO14443TypeRecognizer {
    private(set) var current = Technology.iso14443a

    mutating func technology(of frame: Frame) -> Technology {
        guard case .data = frame.event, !frame.crcStripped else { return current }
        let bytes = frame.bytes
        if bytes.count == 1, bytes[0] == 0x26 || bytes[0] == 0x52 {
            current = .iso14443a
        } else if bytes.count >= 3, !CRCBytes(bytes, kind: current.crcKind).hasValidCRC() {
            // Only a frame whose CRC fits the other type and not this one switches, so a frame
            // that fits the current type needs no second CRC (writers run this on every frame).
            let other: Technology = current == .iso14443a ? .iso14443b : .iso14443a
            if CRCBytes(bytes, kind: other.crcKind).hasValidCRC() { current = other }
        }
        return current
    }
}
