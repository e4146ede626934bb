/// The rules by which a VICC decides whether, and in which slot, it answers an Inventory
/// (ISO/IEC 15693-3 anticollision, "request processing by the VICC"; protocols.md §6.4).
public enum ISO15693Anticollision {
    /// The most significant bits of a 1-slot mask: 64; a 16-slot mask leaves 4 bits to the slot number.
    public static func maximumMaskLength(oneSlot: Bool) -> Int { oneSlot ? 64 : 60 }

    /// The slot in which the VICC with `uid` answers, or nil when the mask leaves it out.
    ///
    /// ISO/IEC 15693-3: the VICC answers in slot SN when `LSB(UID, SN_length + mask length) =
    /// SN ‖ mask` — the mask covers the low `maskLength` bits of the UID (the mask is sent LSB
    /// first, padded with zero bits on its MSB side), the next 4 bits are the slot number
    /// (SN_length 4 with 16 slots, 0 with 1 slot). A mask longer than the UID leaves room for
    /// nothing: no answer.
    public static func slot(of uid: ISO15693UID, maskLength: UInt8, mask: [UInt8], oneSlot: Bool) -> Int? {
        let length = Int(maskLength)
        guard length <= maximumMaskLength(oneSlot: oneSlot) else { return nil }
        var maskValue: UInt64 = 0
        for (i, b) in mask.prefix(8).enumerated() { maskValue |= UInt64(b) << UInt64(8 * i) }
        let significant: UInt64 = length >= 64 ? ~0 : (1 << UInt64(length)) - 1
        guard uid.value & significant == maskValue & significant else { return nil }
        return oneSlot ? 0 : Int((uid.value >> UInt64(length)) & 0x0F)
    }

    /// Whether a VICC whose AFI is `vicc` answers an Inventory asking for `requested` (ISO/IEC
    /// 15693-3 AFI coding table): `00` selects every VICC; `X0` every sub-family of family X;
    /// `XY` and `0Y` (proprietary sub-family Y) only that exact value.
    public static func afiSelects(requested: UInt8, vicc: UInt8) -> Bool {
        if requested == 0 { return true }
        if requested & 0x0F == 0 { return requested & 0xF0 == vicc & 0xF0 }
        return requested == vicc
    }
}
