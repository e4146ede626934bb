/// The fields of Suica / Japanese transit cards (`suica.*`): their keys are JSON keys, replay rules and filters name them
/// (docs/json-output.md, `nfctrace dissect --list-fields suica`).
public final class SuicaFields: FieldTable {
    public var name: String { "suica" }
    public var title: String { "Suica / Japanese transit cards" }

    public let balance = FieldSpec("suica.balance", "Balance", .hex)
    public let busLine = FieldSpec("suica.bus_line", "Bus operator/line", .hex)
    public let busStop = FieldSpec("suica.bus_stop", "Bus stop", .hex)
    public let byte12 = FieldSpec("suica.byte12", "Byte 12", .byte)
    public let change = FieldSpec("suica.change", "Balance change", .text)
    public let date = FieldSpec("suica.date", "Date", .text)
    public let entry = FieldSpec("suica.entry", "Entry line/station", .text)
    public let entryExit = FieldSpec("suica.entry_exit", "Entry/exit type", .byte)
    public let exit = FieldSpec("suica.exit", "Exit line/station", .text)
    public let payment = FieldSpec("suica.payment", "Payment type", .byte)
    public let process = FieldSpec("suica.process", "Process type", .byte)
    public let region = FieldSpec("suica.region", "Region", .text)
    public let sequence = FieldSpec("suica.sequence", "Sequence number", .text)
    public let terminal = FieldSpec("suica.terminal", "Terminal type", .byte)
    public let terminalId = FieldSpec("suica.terminal_id", "Terminal ID", .hex)
    public let time = FieldSpec("suica.time", "Time", .text)
}

extension FieldSpec {
    /// `suica.*`
    public static let suica = SuicaFields()
}
