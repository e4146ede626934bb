import Foundation
import Testing
import NFCCore
@testable import NFCCapture

/// Issue 24: every file nfctrace writes replaces its target only when complete.
@Suite struct AtomicFileTests {
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "nfctrace-atomic-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func text(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func theTargetChangesOnlyAtFinish() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let target = dir + "/out.txt"
        FileManager.default.createFile(atPath: target, contents: Data("old".utf8), attributes: [.posixPermissions: 0o640])
        let out = try ByteOutput.create(target)
        out.write("new content")
        out.flush()
        #expect(Self.text(target) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).count == 2, "a temporary beside the target")
        try out.finish()
        #expect(Self.text(target) == "new content")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["out.txt"])
        let mode = try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int
        #expect(mode == 0o640, "the old file's mode is kept")
    }

    @Test func anOutputDroppedWithoutFinishLeavesTheOldFile() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let target = dir + "/out.pcap"
        FileManager.default.createFile(atPath: target, contents: Data("old".utf8))
        do {
            let writer = try PcapWriter(path: target)
            try writer.write(Frame(.data(.readerToTag), technology: .iso14443a, bytes: [0x26], lastByteBits: 7))
        }
        do {
            let out = try ByteOutput.create(target)
            out.write([UInt8](repeating: 0x41, count: 1 << 17))
        }
        #expect(Self.text(target) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["out.pcap"])
    }

    @Test func aLinkIsFollowedNotReplaced() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        FileManager.default.createFile(atPath: dir + "/real", contents: Data("old".utf8))
        try FileManager.default.createSymbolicLink(atPath: dir + "/link", withDestinationPath: dir + "/real")
        let out = try ByteOutput.create(dir + "/link")
        out.write("new")
        try out.finish()
        #expect(Self.text(dir + "/real") == "new")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: dir + "/link")) == dir + "/real")
    }

    @Test func devicesAreWrittenInPlaceAndBadPathsFailAtOnce() throws {
        let out = try ByteOutput.create("/dev/null")
        out.write("nothing")
        try out.finish()
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(throws: CaptureError.self) { try ByteOutput.create(dir + "/missing/out.pcap") }
        #expect(throws: CaptureError.self) { try ByteOutput.create(dir) }
        #expect(throws: CaptureError.self) { try AtomicFile.checkWritable(dir + "/missing/x") }
        try AtomicFile.checkWritable(dir + "/x")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == [], "the check leaves nothing")
    }

    @Test func inputsReadWholeAreCapped() throws {
        let input = ByteInput.memory([UInt8](repeating: 0, count: 5000), name: "zeros")
        #expect(throws: CaptureError.tooLarge(path: "zeros", what: "a test input", limit: "4 KiB")) {
            try input.readAll(limit: 4096, what: "a test input")
        }
        #expect(try ByteInput.memory([1, 2, 3]).readAll(limit: 3, what: "x") == [1, 2, 3])
    }
}
