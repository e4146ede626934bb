/// Tag memory bytes one frame read or wrote, as offsets into its session's rebuilt memory image
/// (Type 2: page × 4; MIFARE Classic: block × 16; ISO 15693, SRx, iClass: block × block size;
/// FeliCa: block × 16 within one service). Inline, without an array: it rides on every READ
/// answer through the dissection pipeline.
public struct MemoryAccess: Sendable, Equatable {
    public var offset: Int32
    public var count: Int32
    /// The image size at which the bytes continue from offset 0 (a Type 2 READ past the last
    /// page wraps), or 0.
    public var wrap: Int32
    public var write: Bool
    /// FeliCa: the service code whose blocks these are (each service numbers its blocks from 0).
    public var service: UInt16?

    public init(offset: Int, count: Int, wrap: Int = 0, write: Bool, service: UInt16? = nil) {
        self.offset = Int32(clamping: offset)
        self.count = Int32(clamping: count)
        self.wrap = Int32(clamping: wrap)
        self.write = write
        self.service = service
    }
}
