import Foundation
import NFCCore

/// What the app's Info.plist lets Core NFC find: FeliCa cards only for the system codes listed
/// under `com.apple.developer.nfc.readersession.felica.systemcodes`, ISO 7816 cards only for
/// the AIDs under `com.apple.developer.nfc.readersession.iso7816.select-identifiers`, both
/// tried in the listed order.
public struct ReaderEntitlements: Sendable, Hashable {
    /// The Info.plist key of the FeliCa system codes Core NFC polls for.
    public static let feliCaSystemCodesKey = "com.apple.developer.nfc.readersession.felica.systemcodes"
    /// The Info.plist key of the AIDs Core NFC selects on ISO 7816 cards.
    public static let iso7816SelectIdentifiersKey = "com.apple.developer.nfc.readersession.iso7816.select-identifiers"

    /// Upper-case hex, 4 digits each.
    public var feliCaSystemCodes: [String]
    /// Upper-case hex, 10 to 32 digits each.
    public var iso7816SelectIdentifiers: [String]

    /// Entitlements listing `feliCaSystemCodes` and `iso7816SelectIdentifiers` (hex, upper-cased
    /// here).
    public init(feliCaSystemCodes: [String] = [], iso7816SelectIdentifiers: [String] = []) {
        self.feliCaSystemCodes = feliCaSystemCodes.map { $0.uppercased() }
        self.iso7816SelectIdentifiers = iso7816SelectIdentifiers.map { $0.uppercased() }
    }

    /// An Info.plist that cannot be read, or whose NFC lists are not as Core NFC requires.
    public struct PlistError: Error, CustomStringConvertible {
        /// What is wrong with the Info.plist, naming the key.
        public var description: String
    }

    /// Reads the two lists from an Info.plist (XML or binary) as Foundation reads plists.
    public init(infoPlist data: Data) throws {
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw PlistError(description: "not a property list: \(error)")
        }
        guard let dict = object as? [String: Any] else { throw PlistError(description: "the property list is no dictionary") }
        func list(_ key: String) throws -> [String] {
            guard let value = dict[key] else { return [] }
            guard let strings = value as? [String] else { throw PlistError(description: "\(key) is not an array of strings") }
            return strings
        }
        self.init(feliCaSystemCodes: try list(Self.feliCaSystemCodesKey), iso7816SelectIdentifiers: try list(Self.iso7816SelectIdentifiersKey))
        for code in feliCaSystemCodes where Hex.parse(code)?.count != 2 {
            throw PlistError(description: "\(Self.feliCaSystemCodesKey): \"\(code)\" is not a 4-digit system code")
        }
        for aid in iso7816SelectIdentifiers where !(5...16).contains(Hex.parse(aid)?.count ?? 0) {
            throw PlistError(description: "\(Self.iso7816SelectIdentifiersKey): \"\(aid)\" is not an AID of 5 to 16 bytes")
        }
    }

    /// Reads the two lists from the Info.plist file at `url`.
    public init(infoPlistAt url: URL) throws {
        try self.init(infoPlist: try Data(contentsOf: url))
    }

    /// The system codes in polling order. Core NFC refuses the wildcard FFFF in the list; so
    /// does the kit (it is dropped).
    var systemCodes: [UInt16] {
        feliCaSystemCodes.compactMap { Hex.parse($0) }.filter { $0.count == 2 }
            .map { UInt16($0[0]) << 8 | UInt16($0[1]) }.filter { $0 != 0xFFFF }
    }

    var aids: [[UInt8]] { iso7816SelectIdentifiers.compactMap { Hex.parse($0) } }
}
