import Foundation
import Testing
import NFCCore
@testable import NFCCapture

/// FeliCa frames in the text format, with and without CRC_F, and the project's FeliCa traces.
@Suite struct FeliCaTextTraceTests {
    static let sample = """
        nfctrace 1
        @tech felica
        @timebase us
        5000..5604  R  06 00 FE 00 01 00 83 C7  rate=212
        8021..9153  T  14 01 01 01 0A 10 8E 1B 23 4C 03 20 4B 02 4F 49 93 FF FE 00 C7 69  rate=212
        9500  R  0A 04 01 01 0A 10 8E 1B 23 4C  crc=stripped   # Android NfcF.transceive keeps no CRC
        """

    @Test func framesWithAndWithoutCRCRoundTrip() throws {
        let (frames, error, reader) = try Fixtures.read(Array(Self.sample.utf8))
        #expect(error == nil && frames.count == 3)
        #expect(frames.allSatisfy { $0.technology == .felica })
        #expect(CRC.check(.felica, frames[0].bytes) == .ok && CRC.check(.felica, frames[1].bytes) == .ok)
        #expect(frames[2].crcStripped && frames[2].bytes.first == UInt8(frames[2].bytes.count), "LEN without CRC_F")
        #expect(frames[0].bitRate == 212 && frames[2].comment == "Android NfcF.transceive keeps no CRC")
        let written = try Fixtures.write(frames, format: .nfctrace, metadata: reader.metadata)
        let (back, backError, _) = try Fixtures.read(written)
        #expect(backError == nil && back == frames)
    }

    static let root: String = {
        var path = #filePath
        for _ in 0..<4 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path
    }()

    @Test(arguments: ["felica-student-id", "suica-history", "felica-system-switch", "felica-errors"])
    func projectTracesCarryValidFeliCaFrames(name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(Self.root)/Traces/\(name).nfctrace")))
        let (frames, error, reader) = try Fixtures.read(bytes)
        #expect(error == nil)
        #expect(reader.metadata["tag"] != nil && reader.metadata["source"] != nil && reader.metadata["description"] != nil)
        let data = frames.filter { $0.direction != nil }
        #expect(!data.isEmpty && data.allSatisfy { $0.technology == .felica && $0.bitRate == 212 })
        // Every frame but the deliberately damaged ones has a right CRC_F and LEN.
        let damaged = data.filter { CRC.check(.felica, $0.bytes) != .ok || Int($0.bytes.first ?? 0) != $0.bytes.count - 2 }
        #expect(damaged.count == (name == "felica-errors" ? 2 : 0))
        // Start times increase and a frame lasts as long as its bytes take at 212 kbit/s (+ preamble and sync).
        let starts = data.compactMap { $0.start?.value }
        #expect(starts == starts.sorted())
        for f in data {
            guard let s = f.start?.value, let e = f.end?.value else { continue }
            #expect(abs(Double(e - s) - Double(f.bytes.count + 8) * 8 / 0.212) <= 1)
        }
    }
}
