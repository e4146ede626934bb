/// Name tables of the CJRC history (felicalib wiki lineage: metrodroid `SuicaUtil.kt`,
/// ICHistoryReader `Defs.cs`, translated). Best effort: §5.10 rates them as such.
public enum SuicaCodes {
    public static func terminal(_ t: UInt8) -> String? {
        switch t {
        case 0x03: return "fare adjustment machine"
        case 0x04: return "portable terminal"
        case 0x05: return "bus/tram terminal"
        case 0x07, 0x08, 0x12: return "ticket machine"
        case 0x09: return "quick-charge machine"
        case 0x13: return "ticket machine (other)"
        case 0x14: return "station counter"
        case 0x15: return "commuter pass machine"
        case 0x16: return "ticket gate"
        case 0x17: return "simple ticket gate"
        case 0x18: return "station counter (reissue)"
        case 0x19, 0x1A: return "staffed gate terminal"
        case 0x1B: return "mobile phone / PaSoRi"
        case 0x1C: return "transfer fare adjustment"
        case 0x1D: return "transfer gate to other line"
        case 0x1F: return "deposit machine"
        case 0x20: return "counter terminal (Meitetsu)"
        case 0x21: return "fare adjustment machine"
        case 0x22: return "counter / simple gate / bus"
        case 0x23: return "Shinkansen gate"
        case 0x24: return "on-train ticket machine"
        case 0x46: return "VIEW ALTTE"
        case 0x48: return "point exchange machine"
        case 0xC7: return "shop terminal (POS)"
        case 0xC8: return "vending machine"
        default: return nil
        }
    }

    /// Process type b6..b0.
    public static func process(_ p: UInt8) -> String? {
        switch p {
        case 0x01: return "fare (gate exit)"
        case 0x02: return "charge"
        case 0x03: return "ticket purchase"
        case 0x04, 0x05: return "fare adjustment"
        case 0x06: return "counter exit"
        case 0x07: return "new issue"
        case 0x08: return "charge refund"
        case 0x0C, 0x0D, 0x0F: return "bus/tram fare"
        case 0x10, 0x11: return "reissue"
        case 0x13: return "fare (Shinkansen exit)"
        case 0x14: return "auto-charge at entry"
        case 0x15: return "auto-charge at exit"
        case 0x17: return "auto-charge (PiTaPa)"
        case 0x19, 0x1A, 0x1B: return "bus fare adjustment"
        case 0x1D: return "limousine bus"
        case 0x1F: return "charge (bus/counter)"
        case 0x23: return "ticket purchase (bus)"
        case 0x33: return "cancellation (refund)"
        case 0x46: return "purchase"
        case 0x48: return "point charge"
        case 0x49: return "charge (at a shop)"
        case 0x4A: return "purchase cancelled"
        case 0x4B: return "admission (at a shop)"
        default: return nil
        }
    }

    public static func payment(_ p: UInt8) -> String? {
        switch p {
        case 0x00: return "normal"
        case 0x02: return "VIEW card"
        case 0x0B: return "PiTaPa"
        case 0x0C: return "credit card"
        case 0x0D: return "PASMO / Passnet"
        case 0x13: return "nimoca quick charge"
        case 0x1E: return "nimoca SF refund"
        case 0x3F: return "Mobile Suica (credit card)"
        default: return nil
        }
    }

    public static func entryExit(_ e: UInt8) -> String? {
        switch e {
        case 0x00: return "normal (gate exit, or no gate: new issue, charge, purchase …)"
        case 0x01: return "entry (auto-charge)"
        case 0x02: return "entry and exit (stored value)"
        case 0x03: return "pass entry, fare-adjusted exit"
        case 0x04: return "stored-value entry, pass exit"
        case 0x05: return "transfer discount (rail)"
        case 0x0E: return "counter exit"
        case 0x0F: return "bus/tram fare"
        case 0x17: return "transfer discount (bus to rail)"
        case 0x1D: return "transfer discount (bus)"
        case 0x21: return "transfer fare adjustment"
        case 0x22: return "boarding outside the ticket's range"
        default: return nil
        }
    }

    /// Region codes of byte 15 (ICHistoryReader).
    public static func region(_ r: Int) -> String {
        switch r {
        case 0: return "JR / Kanto"
        case 1: return "Chubu"
        case 2: return "Kansai / Okinawa"
        default: return "other"
        }
    }
}
