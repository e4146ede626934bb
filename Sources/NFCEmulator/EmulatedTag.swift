import NFCCore

/// A software tag that answers reader frames like the real chip.
///
/// Frames are as on air: a reader frame carries its CRC unless `crcStripped` (nfcpy's UDP
/// frontend, for instance, strips CRCs); the answer then carries a CRC, or not, the same way.
public protocol EmulatedTag: AnyObject {
    var technology: Technology { get }
    /// The reader field came on: power-on state.
    func fieldOn()
    /// The reader field went off: every volatile state is lost.
    func fieldOff()
    /// The tag's answer to one reader frame, or nil for silence.
    func respond(to frame: Frame) -> Frame?
    /// The tag's current state as a dump file that `TagDump.load` reads back (`emulate --save`),
    /// or nil when the tag cannot be saved.
    func savedDump() -> [UInt8]?
    /// One line: `NTAG215, UID 04 51 5C FA 6F 73 81`.
    var summary: String { get }
}

extension EmulatedTag {
    /// An answer frame of this tag's technology with the CRC added or left out like the request's.
    /// `kind`: the CRC, when it is not the technology's (Type 1 sends CRC_B in 14443-A frames).
    func answer(_ payload: [UInt8], lastByteBits: UInt8 = 8, crc: Bool = true, kind: CRC.Kind? = nil, to request: Frame) -> Frame {
        var frame = Frame(.data(.tagToReader), technology: technology, lastByteBits: lastByteBits, crcStripped: crc && request.crcStripped)
        frame.setPayload(payload, crc: crc, kind)
        return frame
    }
}
