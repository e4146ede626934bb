/// Tag memory bytes one frame read or wrote, as offsets into its session's rebuilt memory image
/// (Type 2: page × 4; MIFARE Classic: block × 16). Inline, without an array: it rides on every
/// READ answer through the dissection pipeline.
public struct MemoryAccess: Sendable, Equatable {
    public var offset: Int32
    public var count: Int32
    /// The image size at which the bytes continue from offset 0 (a Type 2 READ past the last
    /// page wraps), or 0.
    public var wrap: Int32
    public var write: Bool

    public init(offset: Int, count: Int, wrap: Int = 0, write: Bool) {
        self.offset = Int32(clamping: offset)
        self.count = Int32(clamping: count)
        self.wrap = Int32(clamping: wrap)
        self.write = write
    }
}
