#!/usr/bin/env python3
"""Writes the ISO/IEC 15693 (NFC-V) traces of Traces/ as nfctrace text (stdlib only).

Frames follow ISO/IEC 15693-3 as summarised in shared/protocols.md §6: request flags, command,
UID sent LSB first, CRC (ISO/IEC 13239, low byte first). Times are microseconds at the high
data rate with one sub-carrier: the reader's 1-out-of-4 coding and the tag's Manchester coding
both carry 26.48 kbit/s (37.76 us per bit, 302.08 us per byte). Reader frames add SOF 75.52 us
and EOF 37.76 us, tag frames SOF and EOF of 56.64 us each. A tag answers t1 = 4352/fc
(320.9 us) after the reader's EOF; a write or lock answers at t1 + 16 x 4096/fc (about 5.15 ms,
ISO/IEC 15693-3: t1 plus a multiple of 4096/fc, at most 20 ms). The reader waits t2 >= 4192/fc
(309.1 us) before its next request; it gives up on a missing answer after 5 ms.
The .pcap twins will come with the ISO 15693 pcap encapsulation.
Run: scripts/make-iso15693-traces.py Traces/
"""
import sys

from nfc_crc import crc_15693 as crc
from trace_text import TextTrace

FC = 13.56e6
BIT = 512 / FC * 1e6                 # 37.76 us
T1 = 4352 / FC * 1e6                 # 320.9 us
WRITE_DELAY = T1 + 16 * 4096 / FC * 1e6
T2 = 400                             # reader turnaround, a little above 4192/fc
NO_ANSWER = 5000

SLIX2 = [0xE0, 0x04, 0x01, 0x08, 0x49, 0xD0, 0xDC, 0x81]    # protocols.md §6.3 vector, ICODE SLIX2
# The article's CC announces a 384-byte data area (MLEN 0x30): more than a SLIX2's 320 bytes, so the
# formatting trace uses an ST25DV04K-like tag (STMicroelectronics, 128 blocks of 4 bytes = 512 bytes).
ST25DV = [0xE0, 0x02, 0x24, 0x03, 0x6A, 0x1B, 0x5E, 0x42]
TAGIT = [0xE0, 0x07, 0x00, 0x00, 0x1A, 0x2B, 0x3C, 0x4D]    # a Texas Instruments Tag-it HF-I Plus
CC = [0xE1, 0x40, 0x30, 0x01]                               # the source article's CC
NDEF_TLV = [0x03, 0x0C, 0xD1, 0x01, 0x08, 0x54, 0x02, 0x65, 0x6E, 0x48, 0x65, 0x6C, 0x6C, 0x6F, 0xFE]


def with_crc(data):
    return data + crc(data)


def on_air(uid):
    return list(reversed(uid))


def blocks(data, size=4):
    data = data + [0] * (-len(data) % size)
    return [data[i:i + size] for i in range(0, len(data), size)]


class Trace(TextTrace):
    def _frame(self, who, data, sof_eof, note):
        self.event(who, data, sof_eof + len(data) * 8 * BIT, note=note)

    def reader(self, data, note=None, answered=True):
        self._frame("R", data, 75.52 + 37.76, note)
        self.t += T1 if answered else NO_ANSWER

    def tag(self, data, note=None, delay=0.0):
        self.t += delay
        self._frame("T", data, 2 * 56.64, note)
        self.t += T2

    def write(self, uid, block, data, note=None):
        """Write Single Block, addressed, and the tag's answer after its programming time."""
        self.reader(with_crc([0x22, 0x21] + on_air(uid) + [block] + data), note)
        self.tag(with_crc([0x00]), delay=WRITE_DELAY - T1)

    def text(self, metadata):
        return TextTrace.text(self, ["@%s %s" % kv for kv in metadata] + ["@tech 15693", "@timebase us", "@origin 1795392000000000"])


def inventory(t, uid, dsfid=0x00):
    t.reader(with_crc([0x26, 0x01, 0x00]), "Inventory, 1 slot")
    t.tag(with_crc([0x00, dsfid] + on_air(uid)))


def system_information(t, uid, blocks=80, ic_reference=0x01):
    t.reader(with_crc([0x22, 0x2B] + on_air(uid)), "Get System Information")
    # info flags 0F: DSFID 00, AFI 00, memory size (block count and size, stored minus one), IC reference
    t.tag(with_crc([0x00, 0x0F] + on_air(uid) + [0x00, 0x00, blocks - 1, 0x03, ic_reference]))


def format_and_write():
    t = Trace()
    t.comment("A phone formats an ST25DV04K-like tag (128 blocks of 4 bytes) for NDEF and writes the Text record \"Hello\"")
    t.field(True)
    inventory(t, ST25DV)
    system_information(t, ST25DV, blocks=128, ic_reference=0x24)
    t.write(ST25DV, 0, CC, "CC E1 40 30 01: v1.0 read/write always, MLEN 0x30, MBREAD")
    for i, block in enumerate(blocks(NDEF_TLV)):
        t.write(ST25DV, 1 + i, block, "NDEF TLV, Text record (en) \"Hello\"" if i == 0 else None)
    memory = CC + blocks(NDEF_TLV)[0] + blocks(NDEF_TLV)[1] + blocks(NDEF_TLV)[2] + blocks(NDEF_TLV)[3]
    t.reader(with_crc([0x22, 0x23] + on_air(ST25DV) + [0x00, 0x04]), "Read Multiple Blocks 0-4: read back")
    t.tag(with_crc([0x00] + memory))
    t.field(False)
    return t.text([("tag", "STMicroelectronics ST25DV04K-like (128 blocks x 4 bytes)"),
                   ("source", "scripts/make-iso15693-traces.py (synthesised from ISO/IEC 15693-3 and NFC Forum T5T, protocols.md §6)"),
                   ("description", "Inventory, Get System Information, Write Single Block of the CC E1 40 30 01 and of an NDEF TLV "
                                   "with the Text record \"Hello\" block by block, Read Multiple Blocks reading it back")])


def errors():
    t = Trace()
    locked = [0x4C, 0x4F, 0x43, 0x4B]      # "LOCK", block 2 locked at the factory
    block3 = [0x00, 0x11, 0x22, 0x33]
    t.comment("Session 1: an ICODE SLIX2 with block 2 locked; the reader meets error answers, CRC errors and a wrong UID")
    t.field(True)
    inventory(t, SLIX2)
    system_information(t, SLIX2)
    t.reader(with_crc([0x62, 0x20] + on_air(SLIX2) + [0x02]), "Read Single Block 2 with the option flag: security status first")
    t.tag(with_crc([0x00, 0x01] + locked))
    t.reader(with_crc([0x22, 0x21] + on_air(SLIX2) + [0x02, 0x11, 0x22, 0x33, 0x44]), "Write Single Block 2: locked")
    t.tag(with_crc([0x01, 0x12]), delay=WRITE_DELAY - T1)
    t.reader(with_crc([0x22, 0x20] + on_air(SLIX2) + [0x50]), "Read Single Block 80: past the last block 79")
    t.tag(with_crc([0x01, 0x10]))
    bad = with_crc([0x22, 0x20] + on_air(SLIX2) + [0x03])
    bad[-1] ^= 0x5A
    t.reader(bad, "CRC damaged on the way: the tag stays silent", answered=False)
    t.reader(with_crc([0x22, 0x20] + on_air(SLIX2) + [0x03]), "retry")
    damaged = with_crc([0x00] + block3)
    damaged[-2] ^= 0x01
    t.tag(damaged, "answer damaged: wrong CRC")
    t.reader(with_crc([0x22, 0x20] + on_air(SLIX2) + [0x03]), "retry")
    t.tag(with_crc([0x00] + block3))
    t.reader(with_crc([0x22, 0xD0, 0x04] + on_air(SLIX2)), "custom command D0 for NXP: not an ICODE command")
    t.tag(with_crc([0x01, 0x01]))
    other = SLIX2[:7] + [0x82]
    t.reader(with_crc([0x22, 0x20] + on_air(other) + [0x00]), "addressed to a UID the inventory did not find", answered=False)
    t.reader(with_crc([0x22, 0x02] + on_air(SLIX2)), "Stay Quiet: the SLIX2 leaves the next inventories alone", answered=False)

    t.comment("Session 2: the next Inventory finds another tag (the SLIX2 is quiet); no Get System Information")
    inventory(t, TAGIT)
    t.reader(with_crc([0x22, 0x20] + on_air(TAGIT) + [0x00]), "Read Single Block 0: block size from the answer")
    t.tag(with_crc([0x00, 0x00, 0x00, 0x00, 0x00]))
    t.field(False)
    return t.text([("tag", "NXP ICODE SLIX2 (80 blocks x 4 bytes), then a Texas Instruments Tag-it HF-I Plus"),
                   ("source", "scripts/make-iso15693-traces.py (synthesised from ISO/IEC 15693-3, protocols.md §6)"),
                   ("description", "Error answers 0x12 (block locked), 0x10 (block not available), 0x01 (command not supported); "
                                   "a request and an answer with a wrong CRC; a request addressed to an unknown UID; "
                                   "Stay Quiet and a new Inventory that finds another tag")])


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "Traces"
    with open(out + "/iso15693-format-and-write.nfctrace", "w") as f:
        f.write(format_and_write())
    with open(out + "/iso15693-errors.nfctrace", "w") as f:
        f.write(errors())
