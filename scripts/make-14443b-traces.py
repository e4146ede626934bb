#!/usr/bin/env python3
"""Writes the ISO/IEC 14443-B, ST SRx, iClass and mixed-technology traces of Traces/ as nfctrace
text (stdlib only).

Frames follow ISO/IEC 14443-3 Type B (REQB/WUPB `05 AFI PARAM`, ATQB `50 PUPI AppData ProtInfo`,
ATTRIB `1D PUPI P1..P4`, its answer `MBLI|CID`, HLTB `50 PUPI` answered `00`), ISO/IEC 14443-4
blocks over B, and ST's SRI512 datasheet (INITIATE `06 00`, SELECT `0E id`, GET_UID `0B`,
READ_BLOCK `08 a`, WRITE_BLOCK `09 a d4`, COMPLETION `0F`); every frame ends with CRC_B. Times are
microseconds at 106 kbit/s: 10 etu of 9.44 us per byte, SOF and EOF 22 etu in all; the card
answers TR0+TR1 (about 160 us) after the reader, the reader sends 500 us after the card.
The iClass read follows the Proxmark3's iClass code (opcodes, lengths, CRC over all but the
opcode in reader frames) on ISO 15693 timing (a byte is 302.08 us at 26.48 kbit/s).
Run: scripts/make-14443b-traces.py Traces/
"""
import sys

from nfc_crc import crc_a, crc_b, crc_f, crc_iclass
from trace_text import TextTrace

ETU = 128 / 13.56              # 9.44 us
ORIGIN = 1795392000000000


class Trace(TextTrace):
    def frame(self, who, data, note=None, tech=None, bits=8, crc=crc_b):
        if crc:
            data = data + crc(data)
        if tech == "felica":
            duration = (len(data) + 6) * 8 * 4.72
        elif tech == "iclass":
            duration = len(data) * 302.08 + 113.28
        else:
            duration = (len(data) * 10 + 22) * ETU
        suffix = ("/%d" % bits if bits != 8 else "") + ("  tech=" + tech if tech else "")
        self.event(who, data, duration, suffix, note)

    def reader(self, data, note=None, answered=True, **kw):
        self.frame("R", data, note, **kw)
        self.t += 160 if answered else 5000

    def tag(self, data, note=None, **kw):
        self.frame("T", data, note, **kw)
        self.t += 500

    def write(self, path, tag, source, description, tech):
        with open(path, "w") as f:
            f.write(self.text(["@tag " + tag, "@source " + source, "@description " + description,
                               "@tech " + tech, "@timebase us", "@origin %d" % ORIGIN]))


def type4_over_b(out):
    pupi = [0x3E, 0x2A, 0x91, 0x07]
    t = Trace()
    t.comment("Activation: WUPB with 1 slot, the card's ATQB (ISO 14443-4, FSC 256, FWI 7, CID supported), ATTRIB with CID 0")
    t.field(True)
    t.reader([0x05, 0x00, 0x08], "WUPB, AFI all families, 1 slot")
    t.tag([0x50] + pupi + [0x00] + crc_b([0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]) + [0x11, 0x00, 0x81, 0x75], "ATQB")
    t.reader([0x1D] + pupi + [0x00, 0x08, 0x01, 0x00], "ATTRIB: default timings, 106 kbit/s, FSD 256, ISO 14443-4, CID 0")
    t.tag([0x00], "MBLI 0, CID 0")
    t.comment("NFC Forum Type 4 Tag read over ISO-DEP: NDEF application, CC file, NLEN, the NDEF message (https://example.com)")
    apdus = [
        ([0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00], [0x90, 0x00]),
        ([0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x03], [0x90, 0x00]),
        ([0x00, 0xB0, 0x00, 0x00, 0x0F], [0x00, 0x0F, 0x20, 0x00, 0x3B, 0x00, 0x34, 0x04, 0x06, 0xE1, 0x04, 0x00, 0x80, 0x00, 0x00, 0x90, 0x00]),
        ([0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x04], [0x90, 0x00]),
        ([0x00, 0xB0, 0x00, 0x00, 0x02], [0x00, 0x10, 0x90, 0x00]),
        ([0x00, 0xB0, 0x00, 0x02, 0x10], [0xD1, 0x01, 0x0C, 0x55, 0x04] + list(b"example.com") + [0x90, 0x00]),
    ]
    n = 0
    for command, answer in apdus:
        t.reader([0x02 | n] + command)
        t.tag([0x02 | n] + answer)
        n ^= 1
    t.comment("S(DESELECT) and its answer; then WUPB finds the card halted (no answer) and the field goes off")
    t.reader([0xC2], "S(DESELECT)")
    t.tag([0xC2])
    t.reader([0x05, 0x00, 0x00], "REQB: a deselected card stays silent", answered=False)
    t.field(False)
    t.write(out + "/iso14443b-type4-read.nfctrace",
            "an ISO 14443-B Type 4 Tag (PUPI 3E 2A 91 07) holding one URI record",
            "scripts/make-14443b-traces.py (synthesised from ISO/IEC 14443-3 Type B and 14443-4, NFC Forum Type 4 Tag)",
            "WUPB, ATQB, ATTRIB and its answer, then a Type 4 NDEF read in I-blocks over B, S(DESELECT)",
            "14443b")


def sri512(out):
    chip = 0x5A
    uid = [0xD0, 0x02, 0x18, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5]   # printed most significant first; SRI512 product code 6
    memory = {a: [0xFF] * 4 for a in range(5)}
    memory[5] = [0xFE, 0xFF, 0xFF, 0xFF]
    memory[6] = [0xFF, 0xFF, 0xFF, 0xFF]
    for a in range(7, 16):
        memory[a] = [a, 0x10 + a, 0x20 + a, 0x30 + a]
    memory[255] = [0xFF, 0xFF, 0xFF, 0xFF]
    t = Trace()
    t.comment("ST SRI512: INITIATE, SELECT by Chip_ID, GET UID, then every block and the system block")
    t.field(True)
    t.reader([0x06, 0x00], "INITIATE")
    t.tag([chip], "Chip_ID")
    t.reader([0x0E, chip], "SELECT")
    t.tag([chip])
    t.reader([0x0B], "GET UID")
    t.tag(list(reversed(uid)), "UID, least significant byte first")
    for a in list(range(16)) + [255]:
        t.reader([0x08, a], "READ_BLK %d" % a)
        t.tag(memory[a])
    t.comment("A write to block 7, read back; COMPLETION deactivates the card")
    new = [0xCA, 0xFE, 0xBA, 0xBE]
    t.reader([0x09, 0x07] + new, "WRITE_BLK 7 (no answer)", answered=False)
    t.reader([0x08, 0x07], "READ_BLK 7")
    t.tag(new)
    t.reader([0x0F], "COMPLETION", answered=False)
    t.field(False)
    t.write(out + "/sri512-read.nfctrace",
            "ST SRI512 (16 blocks of 4 bytes, UID D0 02 18 A1 B2 C3 D4 E5)",
            "scripts/make-14443b-traces.py (synthesised from ST's SRI512 datasheet)",
            "INITIATE, SELECT, GET UID, READ_BLK of blocks 0-15 and 255, WRITE_BLK 7, COMPLETION",
            "14443b")


def mixed_polling(out):
    """A reader's polling loop over A, B and F, as Android's and PN53x readers run it."""
    idm = [0x01, 0x2E, 0x4C, 0x7A, 0x12, 0x34, 0x56, 0x78]
    pmm = [0x03, 0x01, 0x4B, 0x02, 0x4F, 0x49, 0x93, 0xFF]
    t = Trace()
    t.comment("Round 1: nothing answers REQA or REQB; a FeliCa card answers Polling")
    t.field(True)
    t.reader([0x26], "REQA", answered=False, tech="14443a", bits=7, crc=None)
    t.reader([0x05, 0x00, 0x00], "REQB", answered=False, tech="14443b")
    t.reader([0x06, 0x00, 0xFF, 0xFF, 0x01, 0x00], "Polling, system code FFFF, request system code", tech="felica", crc=crc_f)
    t.tag([0x14, 0x01] + idm + pmm + [0x88, 0xB4], tech="felica", crc=crc_f)
    t.field(False)
    t.comment("Round 2: a Type B card answers REQB; the card is taken away before ATTRIB")
    t.field(True)
    t.reader([0x26], "REQA", answered=False, tech="14443a", bits=7, crc=None)
    t.reader([0x05, 0x00, 0x00], "REQB", tech="14443b")
    t.tag([0x50, 0x11, 0x22, 0x33, 0x44, 0x00, 0x00, 0x00, 0x00, 0x00, 0x71, 0x71], "ATQB", tech="14443b")
    t.reader([0x06, 0x00, 0xFF, 0xFF, 0x01, 0x00], "Polling", answered=False, tech="felica", crc=crc_f)
    t.field(False)
    t.comment("Round 3: an NTAG213 (7-byte UID) answers REQA, anticollision, SELECT at two cascade levels, and READ 4")
    t.field(True)
    uid = [0x04, 0xA2, 0x2C, 0x12, 0xDE, 0x5F, 0x80]
    cl1 = [0x88] + uid[:3]
    cl2 = uid[3:]
    bcc = lambda b: b[0] ^ b[1] ^ b[2] ^ b[3]
    t.reader([0x26], "REQA", tech="14443a", bits=7, crc=None)
    t.tag([0x44, 0x00], "ATQA", tech="14443a", crc=None)
    t.reader([0x93, 0x20], "ANTICOLLISION CL1", tech="14443a", crc=None)
    t.tag(cl1 + [bcc(cl1)], tech="14443a", crc=None)
    t.reader([0x93, 0x70] + cl1 + [bcc(cl1)], "SELECT CL1", tech="14443a", crc=crc_a)
    t.tag([0x04], "SAK 04: cascade", tech="14443a", crc=crc_a)
    t.reader([0x95, 0x20], "ANTICOLLISION CL2", tech="14443a", crc=None)
    t.tag(cl2 + [bcc(cl2)], tech="14443a", crc=None)
    t.reader([0x95, 0x70] + cl2 + [bcc(cl2)], "SELECT CL2", tech="14443a", crc=crc_a)
    t.tag([0x00], "SAK 00: Type 2", tech="14443a", crc=crc_a)
    t.reader([0x30, 0x04], "READ 4", tech="14443a", crc=crc_a)
    t.tag([0x03, 0x0F, 0xD1, 0x01, 0x0B, 0x55, 0x04, 0x6E, 0x66, 0x63, 0x2E, 0x64, 0x65, 0x76, 0x2F, 0x61], tech="14443a", crc=crc_a)
    t.reader([0x05, 0x00, 0x00], "REQB", answered=False, tech="14443b")
    t.field(False)
    t.write(out + "/mixed-polling-loop.nfctrace",
            "a FeliCa card, then a Type B card, then an NTAG213 in a reader's A/B/F polling loop",
            "scripts/make-14443b-traces.py (synthesised)",
            "three rounds of REQA, REQB and FeliCa Polling; each round finds another technology",
            "14443a")


def iclass(out):
    """A PicoPass 2K read as HID readers do: ACTALL, IDENTIFY, SELECT, READCHECK[Kd], CHECK, READs."""
    csn = [0x42, 0x20, 0x71, 0x04, 0x08, 0x00, 0x12, 0xE0]
    anticollision = [(csn[i] >> 3 | csn[(i + 1) % 8] << 5) & 0xFF for i in range(8)]
    config = [0x12, 0xFF, 0xFF, 0xFF, 0x7F, 0x1F, 0xFF, 0x3C]
    epurse = [0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
    blocks = {1: config, 5: [0xFF] * 8, 6: [0x03, 0x03, 0x03, 0x03, 0x00, 0x03, 0xE0, 0x17],
              7: [0xA1, 0x9B, 0x33, 0x0C, 0x5E, 0x71, 0x04, 0xD2], 8: [0x2A, 0xD4, 0x4C, 0xB1, 0xE7, 0x55, 0x3F, 0x90],
              9: [0x2A, 0xD4, 0x4C, 0xB1, 0xE7, 0x55, 0x3F, 0x90]}
    t = Trace()
    r = lambda data, note=None, answered=True: t.reader(data, note, answered=answered, tech="iclass", crc=None)
    a = lambda data, note=None: t.tag(data, note, tech="iclass", crc=None)
    with_crc = lambda data: data + crc_iclass(data)
    t.comment("Anticollision and selection: ACTALL (answered by a bare SOF, not captured), IDENTIFY, SELECT")
    t.field(True)
    r([0x0A], "ACTALL")
    r([0x0C], "IDENTIFY")
    a(with_crc(anticollision), "anticollision CSN")
    r([0x81] + anticollision, "SELECT")
    a(with_crc(csn), "CSN")
    t.comment("Authentication with the debit key: READCHECK[Kd](2) gives the e-purse, CHECK sends NR and the reader MAC")
    r([0x88, 0x02], "READCHECK[Kd](2)")
    a(epurse, "e-purse, no CRC")
    r([0x05, 0x00, 0x00, 0x00, 0x00, 0x5C, 0xB1, 0x3E, 0x86], "CHECK")
    a([0x8A, 0x41, 0x2F, 0xD7], "card MAC, no CRC")
    t.comment("The configuration block, the issuer area and the HID application blocks 6-9 (7-9 3DES-encrypted)")
    for b in [1, 5, 6, 7, 8, 9]:
        r([0x0C, b] + crc_iclass([b]), "READ(%d)" % b)
        a(with_crc(blocks[b]))
    t.field(False)
    t.write(out + "/iclass-read.nfctrace",
            "an HID iClass / PicoPass 2K (CSN 42 20 71 04 08 00 12 E0) with a 3DES-encrypted HID credential",
            "scripts/make-14443b-traces.py (synthesised from the Proxmark3's iClass code; MACs made up, not computed)",
            "ACTALL, IDENTIFY, SELECT, READCHECK[Kd], CHECK, READ of blocks 1, 5, 6, 7, 8, 9",
            "iclass")


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "Traces"
    type4_over_b(out)
    sri512(out)
    mixed_polling(out)
    iclass(out)
