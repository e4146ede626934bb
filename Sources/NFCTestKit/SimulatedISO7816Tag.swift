import Foundation
import NFCCore
import NFCEmulator

/// An ISO-DEP card one of the app's Info.plist AIDs selected during discovery, as Core NFC
/// hands it to the app as `NFCISO7816Tag`.
public final class SimulatedISO7816Tag: SimulatedTag, NFCISO7816Tag {
    public let initialSelectedAID: String
    public let identifier: Data
    public let historicalBytes: Data?
    /// 14443-B application data: none on the 14443-A cards the kit simulates.
    public let applicationData: Data? = nil
    public let proprietaryApplicationDataCoding = false
    var link: ISODEPLink

    init(session: SimulatedTagReaderSession, air: SimulatedAir, activation: ISO14443AActivation, link: ISODEPLink, aid: String) {
        identifier = Data(activation.uid)
        historicalBytes = activation.ats.map { Data($0.historicalBytes) }
        initialSelectedAID = aid
        self.link = link
        super.init(session: session, air: air)
    }

    public func sendCommand(apdu: NFCISO7816APDU) async throws -> (Data, UInt8, UInt8) { try self.apdu(apdu) }

    func apdu(_ apdu: NFCISO7816APDU) throws -> (Data, UInt8, UInt8) {
        try ready()
        return try link.send(apdu, with: self)
    }

    public func queryNDEFStatus() async throws -> (NFCNDEFStatus, Int) { try Type4NDEF(tag: self).status() }
    public func readNDEF() async throws -> NFCNDEFMessage { try Type4NDEF(tag: self).read() }
    public func writeNDEF(_ ndefMessage: NFCNDEFMessage) async throws { try Type4NDEF(tag: self).write(ndefMessage) }
    public func writeLock() async throws {
        throw NFCReaderError(.readerErrorUnsupportedFeature, message: "writeLock is not simulated for ISO 7816 tags")
    }
}
