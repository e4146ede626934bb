import NFCCapture
import NFCCore
@testable import NFCDissect
import Testing

/// nfc-laboratory's JSON exports (../shared/captures/nfc-laboratory, read in place): detected by
/// content, every frame read with its technology, direction, short-frame bits and times, and the
/// NFC-A, NFC-B and NFC-F recordings dissected with nothing unknown.
@Suite(.enabled(if: GoldenTests.sharedAvailable, "../shared is not beside this checkout"))
struct NFCLaboratoryTests {
    static let folder = GoldenTests.sharedTraces + "/../captures/nfc-laboratory/"

    static func read(_ path: String) throws -> (format: CaptureFormat, frames: [Frame]) {
        let reader = try Capture.open(path)
        var frames: [Frame] = []
        while let f = try reader.next() { frames.append(f) }
        return (reader.format, frames)
    }

    @Test(arguments: [("test_NFC-A_106kbps_001.json", Technology.iso14443a, 10), ("test_NFC-B_106kbps_001.json", .iso14443b, 5),
                      ("test_NFC-F_212kbps_001.json", .felica, 7)])
    func exportsAreRead(file: String, technology: Technology, count: Int) throws {
        let (format, frames) = try Self.read(Self.folder + file)
        #expect(format == .nfcLaboratory)
        #expect(frames.count == count)
        #expect(frames.first?.technology == technology && frames.first?.isReaderFrame == true)
        #expect(frames.allSatisfy { $0.start != nil })
        let times = frames.map { $0.start?.nanoseconds ?? 0 }
        #expect(times == times.sorted(), "in time order")
        for case .frame(let f) in Dissector.dissect(frames) {
            #expect(!f.summary.contains("unknown") && !f.summary.contains("malformed") && !f.summary.contains("invalid"), "\(file) frame \(f.number): \(f.summary)")
            #expect(!f.layer.contains("ISO/IEC 14443-B"), "a Type B frame is dissected, not shown raw")
        }
    }

    @Test func shortFramesAndRatesComeFromTheExport() throws {
        let (_, frames) = try Self.read(Self.folder + "test_NFC-A_106kbps_001.json")
        #expect(frames[0].bytes == [0x52] && frames[0].lastByteBits == 7, "WUPA, flagged ShortFrame")
        #expect(frames[0].bitRate == 106)
        let f = try Self.read(Self.folder + "test_NFC-F_212kbps_001.json").frames
        #expect(f[0].bitRate == 212)
        // The NFC-F recording holds one ISO 15693 frame (techType 0x0104): mixed technologies stay apart.
        #expect(f.contains { $0.technology == .iso15693 })
    }

    /// A file cut in the middle of a frame gives the frames before it, then the damage.
    @Test func aCutExportYieldsWhatCameBefore() throws {
        let whole = try ByteInput.open(Self.folder + "test_NFC-A_106kbps_001.json").readAll(limit: 1 << 20, what: "test")
        let cut = Array(whole.prefix(whole.count * 6 / 10))
        let reader = try Capture.open(ByteInput.memory(cut, name: "cut.json"))
        var frames = 0
        var damage: CaptureError?
        do {
            while try reader.next() != nil { frames += 1 }
        } catch {
            damage = error
        }
        #expect(frames >= 4)
        let expected = frames + 1
        if case .damaged(let path, let offset, let frame, _)? = damage {
            #expect(path == "cut.json")
            #expect(frame == expected)
            #expect(offset > 0 && offset < cut.count)
        } else {
            Issue.record("no damage reported: \(String(describing: damage))")
        }
    }

    /// `convert --to nfclab`: the lab's own recordings and a trace of nfctrace's come back
    /// frame for frame (times to the nanosecond, within the rounding of seconds as doubles).
    @Test(arguments: ["test_NFC-A_106kbps_001.json", "test_NFC-B_106kbps_001.json", "test_NFC-F_212kbps_001.json"])
    func exportsAreWrittenBack(file: String) throws {
        let (_, frames) = try Self.read(Self.folder + file)
        let out = ByteOutput.inMemory()
        let writer = NFCLaboratoryWriter(output: out)
        for f in frames { try writer.write(f) }
        try writer.finish()
        let reader = try Capture.open(ByteInput.memory(out.memory ?? []))
        #expect(reader.format == .nfcLaboratory)
        var back: [Frame] = []
        while let f = try reader.next() { back.append(f) }
        #expect(back.count == frames.count)
        for (a, b) in zip(frames, back) {
            #expect(a.event == b.event && a.technology == b.technology && a.bytes == b.bytes && a.lastByteBits == b.lastByteBits)
            #expect(a.comment == b.comment && a.bitRate == b.bitRate)
            #expect(abs((a.start?.nanoseconds ?? 0) - (b.start?.nanoseconds ?? 0)) <= 1)
        }
    }

    @Test func iClassCannotBeWritten() {
        let writer = NFCLaboratoryWriter(output: ByteOutput.inMemory())
        #expect(throws: CaptureError.self) { try writer.write(Frame(.data(.readerToTag), technology: .iclass, bytes: [0x0A])) }
    }
}
