/// The answer to NXP's GET NXP SYSTEM INFORMATION (custom `AB`, manufacturer `04`), after the
/// response flags: protection pointer, protection condition, lock bits, 4 feature-flag bytes
/// (LSB first). Layout from one source, the Flipper Zero SLIX listener and poller
/// (`lib/nfc/protocols/slix/slix_listener_i.c`, `slix.h`, `slix_i.h`): confidence S.
public struct ISO15693NXPSystemInformation: Sendable, Hashable {
    /// First block of the upper memory page (the page split of the password protection).
    public var protectionPointer: UInt8
    /// b1 RL, b2 WL (lower page read/write protected), b5 RH, b6 WH (upper page).
    public var protectionCondition: UInt8
    /// b1 AFI, b2 EAS, b3 DSFID, b4 protection pointer and condition locked.
    public var lockBits: UInt8
    public var featureFlags: UInt32

    public static let afiLocked: UInt8 = 0x01
    public static let easLocked: UInt8 = 0x02
    public static let dsfidLocked: UInt8 = 0x04
    public static let protectionLocked: UInt8 = 0x08

    /// The feature flags an ICODE SLIX2 reports (Flipper's `SLIX2_FEATURE_FLAGS`): user memory
    /// protection, counter, EAS ID, EAS and AFI password protection, extended inventory read,
    /// EAS IR, originality signature, persistent quiet, privacy, destroy.
    public static let slix2FeatureFlags: UInt32 = 0x0000_357F

    public init(protectionPointer: UInt8, protectionCondition: UInt8, lockBits: UInt8, featureFlags: UInt32) {
        self.protectionPointer = protectionPointer
        self.protectionCondition = protectionCondition
        self.lockBits = lockBits
        self.featureFlags = featureFlags
    }

    public static func decode(_ body: [UInt8]) throws(DecodeError) -> ISO15693NXPSystemInformation {
        var c = ByteCursor(body)
        let pointer = try c.readUInt8("protection pointer")
        let condition = try c.readUInt8("protection condition")
        let locks = try c.readUInt8("lock bits")
        let features = try c.readUInt32LE("feature flags (4 bytes, LSB first)")
        try c.expectEnd("GET NXP SYSTEM INFORMATION answer")
        return ISO15693NXPSystemInformation(protectionPointer: pointer, protectionCondition: condition, lockBits: locks,
                                            featureFlags: features)
    }

    public func encode() -> [UInt8] {
        [protectionPointer, protectionCondition, lockBits] + (0..<4).map { UInt8(truncatingIfNeeded: featureFlags >> (8 * $0)) }
    }
}
