import Testing
@testable import NFCCore

/// The Type 2 page view of `TagMemoryImage`: what the dissector's session memory and
/// `Type2Reconstruction` keep.
@Suite struct Type2PagesTests {
    @Test func pagesAreKnownByteByByte() {
        var m = TagMemoryImage.type2Pages()
        #expect(m.count == 1_024 && m.knownPages.isEmpty && m.page(4) == nil)
        m.store(page: 4, data: [1, 2, 3, 4])
        m.store(page: 255, data: [9, 9, 9, 9])
        m.store(page: 256, data: [7, 7, 7, 7])   // past the image: ignored
        m.store(page: -1, data: [7, 7, 7, 7])
        m.store(page: 5, data: [1, 2, 3])        // not a page: ignored
        #expect(m.knownPages == [4, 255])
        #expect(m.page(4) == [1, 2, 3, 4] && m.page(5) == nil && m.page(256) == nil && m.page(-1) == nil)
        #expect(m.isKnown(16) && !m.isKnown(15) && !m.isKnown(20))
        #expect(m.firstUnknown(in: 16..<24) == 20)
    }

    @Test func readsWrapAtTheLastPageOnlyWhenTheModelIsKnown() {
        var m = TagMemoryImage.type2Pages()
        let data = (0..<16).map { UInt8($0) }
        m.storeRead(firstPage: 0x86, data: data, totalPages: 0x87)
        #expect(m.knownPages == [0, 1, 2, 0x86])
        var unknownModel = TagMemoryImage.type2Pages()
        unknownModel.storeRead(firstPage: 0xFE, data: data, totalPages: nil)
        #expect(unknownModel.knownPages == [0xFE, 0xFF], "no wrap: pages past 0xFF are not kept")
    }

    @Test func fillingTakesOnlyPagesNotYetKnown() {
        var a = TagMemoryImage.type2Pages(), b = TagMemoryImage.type2Pages()
        a.store(page: 4, data: [1, 1, 1, 1])
        b.store(page: 4, data: [2, 2, 2, 2])
        b.store(page: 5, data: [3, 3, 3, 3])
        let filled = a.filled(from: b)
        #expect(filled.page(4) == [1, 1, 1, 1] && filled.page(5) == [3, 3, 3, 3] && filled.knownPages == [4, 5])
        let head = filled.prefix(5 * 4)
        #expect(head.count == 20 && head.knownPages == [4] && !head.isKnown(20))
    }

    /// `knownPages` reads the mask four flags a page; it lists exactly the pages `isKnown(page:)`
    /// accepts, for masks shorter or longer than the bytes and for images without a mask.
    @Test func knownPagesAreThePagesIsKnownAccepts() {
        var rng = SplitMix64(seed: 45)
        for _ in 0..<500 {
            let size = Int(rng.next() % 70)
            let maskSize = rng.next() % 4 == 0 ? size + Int(rng.next() % 9) : max(0, size - Int(rng.next() % 9))
            let mask = rng.next() % 8 == 0 ? nil : (0..<maskSize).map { _ in rng.next() % 5 != 0 }
            let m = TagMemoryImage(bytes: [UInt8](repeating: 0, count: size), known: mask)
            #expect(m.knownPages == (0..<size / 4).filter { m.isKnown(page: $0) })
        }
    }
}
