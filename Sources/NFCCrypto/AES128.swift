import NFCCore
import Crypto
import _CryptoExtras

/// AES-128 on one block, through swift-crypto (`AES.permute`); CBC comes from `BlockCipher`.
public struct AES128: BlockCipher {
    // The bytes, not a `SymmetricKey`: that type is not Sendable in swift-crypto 3.
    let keyBytes: [UInt8]

    /// A 16-byte key; nil for another length.
    public init?(key: [UInt8]) {
        guard key.count == 16 else { return nil }
        keyBytes = key
    }

    var key: SymmetricKey { SymmetricKey(data: keyBytes) }

    public var blockSize: Int { 16 }

    public func encryptBlock(_ block: [UInt8]) -> [UInt8] {
        var b = block
        // Only a key or block of the wrong size throws; both are checked here and in init.
        guard b.count == 16, (try? AES.permute(&b, key: key)) != nil else { return [UInt8](repeating: 0, count: 16) }
        return b
    }

    public func decryptBlock(_ block: [UInt8]) -> [UInt8] {
        var b = block
        guard b.count == 16, (try? AES.inversePermute(&b, key: key)) != nil else { return [UInt8](repeating: 0, count: 16) }
        return b
    }
}

extension UltralightAuthentication {
    /// The authentication of `kind` with a 16-byte key: 2K3DES for Ultralight C, AES-128 for
    /// Ultralight AES; nil for a key of another length.
    public init?(kind: UltralightCipherKind, key: [UInt8]) {
        guard key.count == 16 else { return nil }
        switch kind {
        case .tripleDES: self.init(kind: kind, cipher: TripleDES(key: key))
        case .aes:
            guard let aes = AES128(key: key) else { return nil }
            self.init(kind: kind, cipher: aes)
        }
    }
}
