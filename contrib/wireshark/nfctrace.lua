-- nfctrace.lua — shows pcaps written by nfctrace with its own encapsulation
-- (LINKTYPE_USER3 = DLT 150, docs/trace-format.md): technology, direction, flags, bit rate
-- and the frame bytes. ISO 14443 pcaps (LINKTYPE_ISO_14443) need nothing: Wireshark knows them.
--
-- Use:  wireshark -X lua_script:contrib/wireshark/nfctrace.lua capture.pcap
--       tshark    -X lua_script:contrib/wireshark/nfctrace.lua -r capture.pcap -V
-- or copy this file into Wireshark's personal plugins folder.

local nfctrace = Proto("nfctrace", "nfctrace NFC frame")

local technologies = {
    [0x0A] = "ISO 14443-A",
    [0x0B] = "ISO 14443-B",
    [0x0F] = "FeliCa",
    [0x05] = "ISO 15693",
    [0x0C] = "iClass",
}
local events = {
    [0] = "reader to tag",
    [1] = "tag to reader",
    [2] = "field on",
    [3] = "field off",
}

local f = nfctrace.fields
f.magic = ProtoField.string("nfctrace.magic", "Magic")
f.version = ProtoField.uint8("nfctrace.version", "Version")
f.technology = ProtoField.uint8("nfctrace.technology", "Technology", base.HEX, technologies)
f.event = ProtoField.uint8("nfctrace.event", "Event", base.DEC, events)
f.flags = ProtoField.uint8("nfctrace.flags", "Flags", base.HEX)
f.crc = ProtoField.bool("nfctrace.flags.crc", "CRC included", 8, nil, 0x01)
f.last_bits = ProtoField.uint8("nfctrace.flags.last_bits", "Valid bits in the last byte (0 = 8)", base.DEC, nil, 0xF0)
f.rate = ProtoField.uint16("nfctrace.rate", "Bit rate (kbit/s, 0 = unknown)")
f.length = ProtoField.uint16("nfctrace.length", "Length")
f.data = ProtoField.bytes("nfctrace.data", "Data", base.SPACE)

local e_bad = ProtoExpert.new("nfctrace.malformed", "Malformed nfctrace pseudo-header", expert.group.MALFORMED, expert.severity.ERROR)
nfctrace.experts = { e_bad }

function nfctrace.dissector(tvb, pinfo, tree)
    local n = tvb:len()
    local subtree = tree:add(nfctrace, tvb(0, n))
    if n < 10 or tvb(0, 2):string() ~= "NF" then
        subtree:add_proto_expert_info(e_bad, "record does not start with the 10-byte \"NF\" pseudo-header")
        return n
    end
    pinfo.cols.protocol = "nfctrace"
    subtree:add(f.magic, tvb(0, 2))
    subtree:add(f.version, tvb(2, 1))
    local tech = tvb(3, 1):uint()
    local event = tvb(4, 1):uint()
    local length = tvb(8, 2):uint()
    subtree:add(f.technology, tvb(3, 1))
    subtree:add(f.event, tvb(4, 1))
    local flags = subtree:add(f.flags, tvb(5, 1))
    flags:add(f.crc, tvb(5, 1))
    flags:add(f.last_bits, tvb(5, 1))
    subtree:add(f.rate, tvb(6, 2))
    subtree:add(f.length, tvb(8, 2))
    local techName = technologies[tech] or string.format("technology 0x%02X", tech)
    if event == 0 then
        pinfo.cols.src = "Reader"
        pinfo.cols.dst = "Tag"
    elseif event == 1 then
        pinfo.cols.src = "Tag"
        pinfo.cols.dst = "Reader"
    end
    local info = techName .. ", " .. (events[event] or "unknown event")
    if length > 0 and n >= 10 + length then
        subtree:add(f.data, tvb(10, length))
        info = info .. ": " .. tostring(tvb(10, length):bytes()):upper():gsub("(%x%x)", "%1 "):gsub(" $", "")
    end
    if n ~= 10 + length then
        subtree:add_proto_expert_info(e_bad, string.format("length field says %d bytes, the record holds %d", length, n - 10))
    end
    pinfo.cols.info = info
    subtree:append_text(", " .. info)
    return n
end

local encaps = wtap_encaps or wtap
DissectorTable.get("wtap_encap"):add(encaps.USER3, nfctrace)
