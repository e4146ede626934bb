import Foundation
import NFCCore
@testable import NFCCapture

/// Builders for capture bytes, so tests state exactly what is on disk.
enum Fixtures {
    struct Record {
        var seconds: UInt32
        var fraction: UInt32
        var data: [UInt8]
        var originalLength: UInt32? = nil
    }

    static func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)] }
    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }

    /// A classic little-endian pcap file, with the snapshot length nfctrace writes.
    static func pcap(_ records: [Record], linkType: UInt32 = 264, nanosecond: Bool = false) -> [UInt8] {
        var out = le32(nanosecond ? 0xA1B2_3C4D : 0xA1B2_C3D4) + le16(2) + le16(4) + le32(0) + le32(0)
            + le32(UInt32(PcapEncapsulation.snapshotLength)) + le32(linkType)
        for r in records {
            out += le32(r.seconds) + le32(r.fraction) + le32(UInt32(r.data.count)) + le32(r.originalLength ?? UInt32(r.data.count)) + r.data
        }
        return out
    }

    /// A LINKTYPE_ISO_14443 record: version 0, event, big-endian length, data.
    static func iso14443(_ event: UInt8, _ data: [UInt8]) -> [UInt8] {
        [0x00, event, UInt8(data.count >> 8), UInt8(data.count & 0xFF)] + data
    }

    static func read(_ bytes: [UInt8], options: CaptureReadOptions = CaptureReadOptions()) throws -> (frames: [Frame], error: CaptureError?, reader: FrameReader) {
        try readAll(Capture.open(ByteInput.memory(bytes, name: "test.cap"), options: options))
    }

    /// Every frame of `reader`, and the error that stopped it (nil at a clean end).
    static func readAll(_ reader: FrameReader) -> (frames: [Frame], error: CaptureError?, reader: FrameReader) {
        var frames: [Frame] = []
        do {
            while let f = try reader.next() { frames.append(f) }
            return (frames, nil, reader)
        } catch {
            return (frames, error, reader)
        }
    }

    /// Writes frames with `format` into memory and returns the bytes.
    static func write(_ frames: [Frame], format: CaptureFormat, metadata: TraceMetadata = TraceMetadata(), resolution: TimeUnit = .microseconds) throws -> [UInt8] {
        switch format {
        case .pcap:
            // libpcap's dumper writes to a path; use a temporary file.
            let path = NSTemporaryDirectory() + "nfctrace-test-\(UInt64.random(in: 0...UInt64.max)).pcap"
            let w = try PcapWriter(path: path, resolution: resolution)
            for f in frames { try w.write(f) }
            try w.finish()
            let input = try ByteInput.open(path)
            var bytes: [UInt8] = []
            while !input.isAtEnd { bytes += input.read(4096) }
            unlink(path)
            return bytes
        case .pcapng:
            let out = ByteOutput.inMemory()
            let w = PcapngWriter(output: out, resolution: resolution)
            for f in frames { try w.write(f) }
            try w.finish()
            return out.memory ?? []
        case .nfctrace:
            let out = ByteOutput.inMemory()
            let w = TextTraceWriter(output: out, metadata: metadata)
            for f in frames { try w.write(f) }
            try w.finish()
            return out.memory ?? []
        case .proxmark3:
            let out = ByteOutput.inMemory()
            let w = Proxmark3TraceWriter(output: out)
            for f in frames { try w.write(f) }
            try w.finish()
            return out.memory ?? []
        case .nfcLaboratory:
            let out = ByteOutput.inMemory()
            let w = NFCLaboratoryWriter(output: out)
            for f in frames { try w.write(f) }
            try w.finish()
            return out.memory ?? []
        case .proxmark3Listing:
            throw CaptureError.cannotOpen(path: "memory", reason: "\(format.rawValue) is read only")
        }
    }

    /// `../shared` beside the checkout, where the evaluation traces and dumps live.
    static let sharedDirectory: String? = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        let candidate = path + "/../shared"
        return access(candidate, F_OK) == 0 ? candidate : nil
    }()
}

#if canImport(Glibc)
import Glibc
#endif
