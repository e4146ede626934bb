/// A Type 2 tag's memory as far as a trace showed it, page by page: a `TagMemoryImage` of 256
/// four-byte pages (the most a READ's page byte can name) whose known-byte mask is set page by
/// page. The dissector's session memory and `Type2Reconstruction` are both this image.
extension TagMemoryImage {
    /// Bytes per Type 2 page (NFC Forum Type 2 Tag 2.1, section 2.1).
    public static var type2PageSize: Int { 4 }
    /// Pages a READ can address: its page number is one byte.
    public static var type2MaxPages: Int { 256 }

    /// 256 pages, none known.
    public static func type2Pages() -> TagMemoryImage {
        let size = type2MaxPages * type2PageSize
        return TagMemoryImage(bytes: [UInt8](repeating: 0, count: size), known: [Bool](repeating: false, count: size))
    }

    private static func type2Range(_ page: Int) -> Range<Int> { page * type2PageSize..<(page + 1) * type2PageSize }

    /// Records one page; pages outside the image and data that is not one page are ignored.
    public mutating func store(page: Int, data: ArraySlice<UInt8>) {
        let range = Self.type2Range(page)
        guard page >= 0, range.upperBound <= count, data.count == Self.type2PageSize else { return }
        bytes.replaceSubrange(range, with: data)
        if known != nil { known!.replaceSubrange(range, with: repeatElement(true, count: range.count)) }
    }

    /// Records the pages of a READ/FAST_READ answer. READ wraps at the last page when the
    /// model is known (NTAG213/215/216 datasheet §10.2: "roll-over to page 0").
    public mutating func storeRead(firstPage: Int, data: [UInt8], totalPages: Int?) {
        for i in 0..<data.count / Self.type2PageSize {
            var page = firstPage + i
            if let total = totalPages, total > 0 { page %= total }
            store(page: page, data: data[Self.type2Range(i)])
        }
    }

    public func isKnown(page: Int) -> Bool {
        let range = Self.type2Range(page)
        return page >= 0 && firstUnknown(in: range) == nil
    }

    /// The page's bytes when the trace showed them.
    public func page(_ p: Int) -> [UInt8]? {
        isKnown(page: p) ? Array(bytes[Self.type2Range(p)]) : nil
    }

    /// The page's bytes as a slice (zeros when unknown).
    public func pageSlice(_ p: Int) -> ArraySlice<UInt8> { bytes[Self.type2Range(p)] }

    /// Pages whose four bytes are known, in order.
    public var knownPages: [Int] {
        let pages = count / Self.type2PageSize
        guard let known else { return Array(0..<pages) }
        // The mask read directly, four flags a page (each `isKnown(page:)` scanned a range:
        // 256 pages a call, several calls per session summary); bytes past the mask are unknown.
        var out: [Int] = []
        for page in 0..<min(pages, known.count / Self.type2PageSize) {
            let at = page * Self.type2PageSize
            if known[at], known[at + 1], known[at + 2], known[at + 3] { out.append(page) }
        }
        return out
    }

    /// The first `size` bytes, with their mask.
    public func prefix(_ size: Int) -> TagMemoryImage {
        TagMemoryImage(bytes: Array(bytes.prefix(size)), known: known.map { Array($0.prefix(size)) })
    }

    /// This image, with the pages `other` knows and this one does not taken from `other`.
    public func filled(from other: TagMemoryImage) -> TagMemoryImage {
        var out = self
        for p in other.knownPages where !isKnown(page: p) { out.store(page: p, data: other.pageSlice(p)) }
        return out
    }
}
