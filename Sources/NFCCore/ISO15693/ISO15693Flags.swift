/// Byte 0 of every ISO/IEC 15693 request (protocols.md §6.1; ISO/IEC 15693-3 Tables 3–5).
///
/// b1–b4 mean the same in every request; b5–b6 change meaning with the inventory flag (b3):
/// select/address in ordinary requests, AFI/Nb_slots in inventories.
public struct ISO15693RequestFlags: Sendable, Hashable, RawRepresentable {
    public var rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let subcarrierMask: UInt8 = 0x01
    public static let dataRateMask: UInt8 = 0x02
    public static let inventoryMask: UInt8 = 0x04
    public static let protocolExtensionMask: UInt8 = 0x08
    /// b5: select (inventory = 0) or AFI (inventory = 1).
    public static let b5Mask: UInt8 = 0x10
    /// b6: address (inventory = 0) or Nb_slots (inventory = 1).
    public static let b6Mask: UInt8 = 0x20
    public static let optionMask: UInt8 = 0x40
    public static let rfuMask: UInt8 = 0x80

    /// `26`: high data rate, inventory, 1 slot (the usual single-tag inventory).
    public static func inventory(oneSlot: Bool = true, afi: Bool = false, highDataRate: Bool = true) -> ISO15693RequestFlags {
        var raw = inventoryMask
        if oneSlot { raw |= b6Mask }
        if afi { raw |= b5Mask }
        if highDataRate { raw |= dataRateMask }
        return ISO15693RequestFlags(rawValue: raw)
    }

    /// `22`: high data rate, addressed (UID follows the command); `62` with the option flag.
    public static func addressed(option: Bool = false, highDataRate: Bool = true) -> ISO15693RequestFlags {
        ISO15693RequestFlags(rawValue: b6Mask | (option ? optionMask : 0) | (highDataRate ? dataRateMask : 0))
    }

    /// `02`: high data rate, non-addressed (any VICC in the field answers).
    public static func nonAddressed(option: Bool = false, highDataRate: Bool = true) -> ISO15693RequestFlags {
        ISO15693RequestFlags(rawValue: (option ? optionMask : 0) | (highDataRate ? dataRateMask : 0))
    }

    /// `12`: high data rate, only the VICC in the Selected state answers.
    public static func selected(option: Bool = false, highDataRate: Bool = true) -> ISO15693RequestFlags {
        ISO15693RequestFlags(rawValue: b5Mask | (option ? optionMask : 0) | (highDataRate ? dataRateMask : 0))
    }

    private func bit(_ mask: UInt8) -> Bool { rawValue & mask != 0 }
    private mutating func set(_ mask: UInt8, _ on: Bool) { rawValue = on ? rawValue | mask : rawValue & ~mask }

    /// b1: the VICC answers with two sub-carriers (FSK) instead of one (ASK).
    public var twoSubcarriers: Bool { get { bit(Self.subcarrierMask) } set { set(Self.subcarrierMask, newValue) } }
    /// b2: the VICC answers at the high data rate (26.48 kbit/s) instead of the low one (6.62 kbit/s).
    public var highDataRate: Bool { get { bit(Self.dataRateMask) } set { set(Self.dataRateMask, newValue) } }
    /// b3: b5–b6 carry their inventory meaning.
    public var inventory: Bool { get { bit(Self.inventoryMask) } set { set(Self.inventoryMask, newValue) } }
    /// b4: protocol format is extended (2-byte block numbers on some large tags, protocols.md §6.1).
    public var protocolExtension: Bool {
        get { bit(Self.protocolExtensionMask) }
        set { set(Self.protocolExtensionMask, newValue) }
    }
    /// b7: command-specific option (block security status in read answers; write answers after EOF).
    public var option: Bool { get { bit(Self.optionMask) } set { set(Self.optionMask, newValue) } }
    /// b8: RFU, must be 0.
    public var rfu: Bool { bit(Self.rfuMask) }

    /// b5 of a non-inventory request: only the VICC in the Selected state answers.
    public var select: Bool { !inventory && bit(Self.b5Mask) }
    /// b6 of a non-inventory request: the request carries the UID of the VICC it is for.
    public var address: Bool { !inventory && bit(Self.b6Mask) }
    /// b5 of an inventory request: an AFI byte follows the command.
    public var afi: Bool { inventory && bit(Self.b5Mask) }
    /// b6 of an inventory request: 1 slot instead of 16.
    public var oneSlot: Bool { inventory && bit(Self.b6Mask) }

    /// Whether a UID (8 bytes, LSB first) follows the command code (or the manufacturer code).
    public var carriesUID: Bool { address }
}

/// Byte 0 of every ISO/IEC 15693 response (protocols.md §6.2).
public struct ISO15693ResponseFlags: Sendable, Hashable, RawRepresentable {
    public var rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let errorMask: UInt8 = 0x01
    public static let extensionMask: UInt8 = 0x08
    /// Bits the 1999 draft and later editions leave RFU.
    public static let rfuMask: UInt8 = 0xF6

    public static let ok = ISO15693ResponseFlags(rawValue: 0x00)
    public static let error = ISO15693ResponseFlags(rawValue: errorMask)

    /// b1: an error code follows instead of data.
    public var error: Bool { rawValue & Self.errorMask != 0 }
    /// b4: protocol format is extended.
    public var protocolExtension: Bool { rawValue & Self.extensionMask != 0 }
    public var rfuBits: UInt8 { rawValue & Self.rfuMask }
}
