/// What each output format cannot carry, kind by kind: the one table the writers take their
/// notes from and docs/limits.md shows ("What each format cannot carry"; a test keeps the two
/// in step). A kind missing from a format's row is kept by that format.
public enum FormatLimits {
    /// Every output nfctrace writes: pcap and pcapng once per link type.
    public enum Output: String, Sendable, CaseIterable {
        case pcap264 = "pcap, LINKTYPE_ISO_14443 (264)"
        case pcapUser3 = "pcap, nfctrace's LINKTYPE_USER3 (150)"
        case pcapng264 = "pcapng, LINKTYPE_ISO_14443 (264)"
        case pcapngUser3 = "pcapng, nfctrace's LINKTYPE_USER3 (150)"
        case nfctrace = "nfctrace text"
        case proxmark3 = "Proxmark3 .trace"
        case nfcLaboratory = "nfc-laboratory JSON"

        public static func pcap(_ encapsulation: PcapEncapsulation, ng: Bool) -> Output {
            switch (encapsulation, ng) {
            case (.iso14443, false): return .pcap264
            case (.nfctrace, false): return .pcapUser3
            case (.iso14443, true): return .pcapng264
            case (.nfctrace, true): return .pcapngUser3
            }
        }
    }

    /// The detail of a kind a writer lost although its row does not name it.
    public static let undocumented = "changed on the way, which this format is not documented to do (please report it)"

    public static func losses(of output: Output) -> [(FrameLoss.Kind, String)] {
        switch output {
        case .pcap264, .pcapng264:
            return pcapCommon(output) + [
                (.technology, "ISO 14443-A and -B are told apart by their CRC when read: a frame without one, or whose CRC fits both, takes the type of the frame before it"),
                (.lastByteBits, "LINKTYPE_ISO_14443 has no bit counts: a 7-bit REQA or a 4-bit ACK reads back as 8 bits"),
                (.bitRate, "LINKTYPE_ISO_14443 has no bit rates"),
            ]
        case .pcapUser3, .pcapngUser3:
            return pcapCommon(output) + [
                (.bitRate, "the pseudo-header holds rates up to 65535 kbit/s"),
            ]
        case .nfctrace:
            return [
                (.comments, "line feeds in a comment are dropped, spaces around it go"),
                (.timePrecision, "times are written in one timebase, the first timed frame's unit"),
            ]
        case .proxmark3:
            return [
                (.fieldEvents, "a .trace has none: dropped"),
                (.technology, "a .trace does not say it: frames read back as --tech says (14443a by default)"),
                (.crcFlag, "a .trace has no such mark: the last bytes of such frames read back as a CRC"),
                (.parity, "a .trace holds 14443-A parity only and has no \"unknown\": unknown parity is written as zero bits, which read back as unknown where they would be errors, and as right parity elsewhere"),
                (.lastByteBits, "only a 1-byte frame's bit count is kept, estimated from its duration"),
                (.startTimes, "a frame without a time gets the previous frame's; with --pm3-times wrap times go modulo 2^32 carrier periods"),
                (.endTimes, "a .trace holds the duration in 16 bits (×32 for ISO 15693 and iClass): longer frames are cut, a frame without an end gets one from its bit count, a bare iClass SOF 2048 carrier periods"),
                (.timeOrigin, "--pm3-times first counts from the trace's start"),
                (.timePrecision, "times are whole carrier periods (73.7 ns); ISO 15693 and iClass ends 32 of them"),
                (.bitRate, "a .trace has no bit rates"),
                (.comments, "a .trace has no comments"),
                (.commentLines, "a .trace has no comments"),
                (.metadata, "a .trace has no header"),
                (.malformed, "a .trace has no place for them: dropped"),
            ]
        case .nfcLaboratory:
            return [
                (.crcFlag, "the lab's frames always carry their CRC: the last bytes of such frames read back as a CRC"),
                (.parity, "the lab has a parity-error flag per frame: which bytes is lost, and known right parity reads back as unknown"),
                (.lastByteBits, "the lab's short-frame flag says 7 bits of a 1-byte frame, nothing else"),
                (.startTimes, "a frame without a time is written at 0 s"),
                (.endTimes, "a frame without an end is written ending at its start"),
                (.timePrecision, "times are seconds in doubles: nanoseconds are rounded (by a few hundred at today's dates)"),
                (.comments, "the lab keeps its own flags (nfc-laboratory: encrypted, …), no other comment"),
                (.commentLines, "the lab's export has no comments"),
                (.metadata, "the lab's export has no header"),
                (.malformed, "the lab has no place for them: dropped"),
            ]
        }
    }

    /// What pcap and pcapng lose with either link type.
    private static func pcapCommon(_ output: Output) -> [(FrameLoss.Kind, String)] {
        let ng = output == .pcapng264 || output == .pcapngUser3
        return [
            (.parity, "pcap has no parity bits"),
            (.startTimes, "a frame without a time gets the previous frame's (pcap needs one on every record)"),
            (.endTimes, "pcap has no end times"),
            (.timePrecision, "times are rounded to the file's resolution (--resolution us or ns)"),
            (.malformed, "written as stored, then judged again when read: another reason, or a frame where the record happens to fit"),
            (.metadata, "pcap has no place for the text header's @lines"),
            (.commentLines, ng ? "pcapng keeps comments on frames only" : "pcap has no comments"),
            ng ? (.comments, "the comment option holds 65535 bytes: longer comments are cut") : (.comments, "pcap has no comments (pcapng keeps them)"),
        ]
    }
}
