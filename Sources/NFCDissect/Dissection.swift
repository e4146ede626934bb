import NFCCore
