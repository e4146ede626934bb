/// A block cipher with a fixed key: 2K3DES here, AES-128 in NFCCrypto (through swift-crypto).
/// CBC is written once, over it.
public protocol BlockCipher: Sendable {
    /// 8 (DES) or 16 (AES).
    var blockSize: Int { get }
    func encryptBlock(_ block: [UInt8]) -> [UInt8]
    func decryptBlock(_ block: [UInt8]) -> [UInt8]
}

extension BlockCipher {
    /// CBC over whole blocks (a partial last block is left out); `iv` is one block.
    public func encryptCBC(_ data: [UInt8], iv: [UInt8]) -> [UInt8] {
        let n = blockSize
        var previous = iv
        var out: [UInt8] = []
        out.reserveCapacity(data.count - data.count % n)
        for i in stride(from: 0, to: data.count - data.count % n, by: n) {
            previous = encryptBlock(zip(data[i..<i + n], previous).map { $0 ^ $1 })
            out += previous
        }
        return out
    }

    public func decryptCBC(_ data: [UInt8], iv: [UInt8]) -> [UInt8] {
        let n = blockSize
        var previous = iv
        var out: [UInt8] = []
        out.reserveCapacity(data.count - data.count % n)
        for i in stride(from: 0, to: data.count - data.count % n, by: n) {
            let block = Array(data[i..<i + n])
            out += zip(decryptBlock(block), previous).map { $0 ^ $1 }
            previous = block
        }
        return out
    }
}
