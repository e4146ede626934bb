#!/usr/bin/env python3
"""Writes the NTAG215 traces of Traces/ as nfctrace text (stdlib only).

The exchanges follow the first source article (Core NFC reading a password-protected NTAG215)
and the NXP NTAG213/215/216 datasheet: frame contents, CRC_A, 4-bit ACK/NAK, READ returning
four pages, FAST_READ returning end-start+1 pages. Times are microseconds at 106 kbit/s
(one byte with parity ~ 85 us, frame delay ~ 86 us). The .pcap twins are made with
`nfctrace convert`. Run: scripts/make-ntag-traces.py Traces/
"""
import sys

from nfc_crc import crc_a

UID = [0x04, 0xA2, 0x2C, 0x12, 0xDE, 0x5F, 0x80]
PWD = [0x12, 0x34, 0x56, 0x78]
PACK = [0x80, 0x80]
VERSION_NTAG215 = [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03]
URI = "nfctrace.example/tags/ntag215?id=42"   # with prefix 0x04 = "https://"


def with_crc(data):
    return data + crc_a(data)


def ndef_memory():
    """NTAG215 user memory (pages 4..0x81) holding one NDEF TLV with a URI record."""
    payload = [0x04] + list(URI.encode())
    record = [0xD1, 0x01, len(payload), 0x55] + payload
    tlv = [0x03, len(record)] + record + [0xFE]
    user = tlv + [0x00] * (504 - len(tlv))
    return user


def memory_image():
    bcc0 = 0x88 ^ UID[0] ^ UID[1] ^ UID[2]
    bcc1 = UID[3] ^ UID[4] ^ UID[5] ^ UID[6]
    pages = [0] * (135 * 4)
    pages[0:4] = UID[0:3] + [bcc0]
    pages[4:8] = UID[3:7]
    pages[8:12] = [bcc1, 0x48, 0x00, 0x00]
    pages[12:16] = [0xE1, 0x10, 0x3E, 0x00]
    pages[16:16 + 504] = ndef_memory()
    pages[0x82 * 4:0x83 * 4] = [0x00, 0x00, 0x00, 0xBD]
    pages[0x83 * 4:0x84 * 4] = [0x04, 0x00, 0x00, 0x10]   # CFG0: AUTH0 = 0x10
    pages[0x84 * 4:0x85 * 4] = [0x00, 0x05, 0x00, 0x00]   # CFG1: PROT 0 (writes need PWD)
    # PWD and PACK always read back as zeros.
    return pages


class Trace:
    def __init__(self, title):
        self.lines = []
        self.t = 0
        self.title = title

    def comment(self, text):
        self.lines.append("")
        self.lines.append("# " + text)

    def field(self, on):
        self.lines.append("%12d  %s" % (self.t, "field-on" if on else "field-off"))
        self.t += 5000 if on else 20000

    def frame(self, who, data, bits=8, note=None, gap=86):
        nbits = (len(data) - 1) * 8 + bits
        duration = max(10, round((nbits + nbits // 8 + 2) * 9.44))
        tokens = ["%02X" % b for b in data]
        if bits != 8:
            tokens[-1] += "/%d" % bits
        text = "%12s  %s  %s" % ("%d..%d" % (self.t, self.t + duration), who, " ".join(tokens))
        if note:
            text += "  # " + note
        self.lines.append(text)
        self.t += duration + gap

    def reader(self, data, bits=8, note=None):
        self.frame("R", data, bits, note, gap=86)

    def tag(self, data, bits=8, note=None):
        self.frame("T", data, bits, note, gap=300)

    def activate(self, mem):
        self.reader([0x26], bits=7)
        self.tag([0x44, 0x00])
        self.reader([0x93, 0x20])
        cl1 = [0x88] + UID[0:3]
        self.tag(cl1 + [cl1[0] ^ cl1[1] ^ cl1[2] ^ cl1[3]])
        self.reader(with_crc([0x93, 0x70] + cl1 + [cl1[0] ^ cl1[1] ^ cl1[2] ^ cl1[3]]))
        self.tag(with_crc([0x04]))
        self.reader([0x95, 0x20])
        cl2 = UID[3:7]
        bcc1 = cl2[0] ^ cl2[1] ^ cl2[2] ^ cl2[3]
        self.tag(cl2 + [bcc1])
        self.reader(with_crc([0x95, 0x70] + cl2 + [bcc1]))
        self.tag(with_crc([0x00]))
        self.reader(with_crc([0x60]))
        self.tag(with_crc(VERSION_NTAG215))

    def read(self, mem, page):
        self.reader(with_crc([0x30, page]))
        data = []
        for i in range(4):
            p = (page + i) % 135
            data += [0, 0, 0, 0] if p in (0x85, 0x86) else mem[p * 4:p * 4 + 4]
        self.tag(with_crc(data))

    def fast_read(self, mem, start, end):
        self.reader(with_crc([0x3A, start, end]))
        self.tag(with_crc(mem[start * 4:(end + 1) * 4]))

    def text(self, metadata):
        head = ["nfctrace 1"] + ["@%s %s" % kv for kv in metadata] + ["@tech 14443a", "@timebase us", "@origin 1795392000000000"]
        return "\n".join(head + self.lines) + "\n"


def password_read():
    mem = memory_image()
    t = Trace("ntag215-password-read")
    t.comment("Session 1: Core NFC reads a password-protected NTAG215 (PWD_AUTH, READ, FAST_READ)")
    t.field(True)
    t.activate(mem)
    t.reader(with_crc([0x1B] + PWD), note="PWD_AUTH with the app's password")
    t.tag(with_crc(PACK))
    t.read(mem, 0x03)
    t.read(mem, 0x04)
    t.read(mem, 0x08)
    t.fast_read(mem, 0x0C, 0x0F)
    t.reader(with_crc([0x50, 0x00]))
    t.field(False)

    t.comment("Session 2: a wrong password is refused with NAK 0 (4-bit frame)")
    t.field(True)
    t.activate(mem)
    t.reader(with_crc([0x1B, 0xFF, 0xFF, 0xFF, 0xFF]), note="factory default password")
    t.tag([0x00], bits=4)
    t.field(False)

    t.comment("Session 3: the reader authenticates and writes page 0x10 (4-bit ACK), then reads it back")
    t.field(True)
    t.activate(mem)
    t.reader(with_crc([0x1B] + PWD))
    t.tag(with_crc(PACK))
    new = [0xDE, 0xAD, 0xBE, 0xEF]
    t.reader(with_crc([0xA2, 0x10] + new))
    t.tag([0x0A], bits=4)
    mem[0x10 * 4:0x11 * 4] = new
    t.read(mem, 0x10)
    t.reader(with_crc([0x50, 0x00]))
    t.field(False)
    return t.text([("tag", "NTAG215"), ("source", "scripts/make-ntag-traces.py (synthesised from the NXP NTAG213/215/216 datasheet)"),
                   ("description", "Core NFC reading a password-protected NTAG215: PWD_AUTH, READ, FAST_READ; a wrong password; a WRITE")])


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "Traces"
    with open(out + "/ntag215-password-read.nfctrace", "w") as f:
        f.write(password_read())
