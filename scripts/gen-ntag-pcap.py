#!/usr/bin/env python3
"""Generates a large NTAG pcap (LINKTYPE_ISO_14443) for benchmarks, stdlib only.

It repeats the sessions of Traces/ntag215-password-read.pcap (activation, GET_VERSION,
PWD_AUTH/PACK, READ, FAST_READ, a wrong password, WRITE/ACK, HLTA, field on/off), shifting
timestamps, until exactly --frames records are written. --no-auth leaves out PWD_AUTH and its
answer (tshark mis-reads PWD_AUTH as a chained ISO-DEP I-block, which makes it quadratic).
--article repeats the 18-frame session of ../shared/notes/wireshark-interop.md section 2.2
(activation, GET_VERSION, PWD_AUTH/PACK, READ page 3, FAST_READ pages 4-15) with the field kept
on, as the tshark measurements there used; the FAST_READ is assembled from the trace's READs.
"""
import argparse
import itertools
import struct
import sys

from nfc_crc import crc_a


def records(path):
    with open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack("<I", data[:4])[0]
    assert magic == 0xA1B2C3D4, "expects a little-endian microsecond pcap"
    i = 24
    out = []
    while i + 16 <= len(data):
        sec, usec, incl, orig = struct.unpack("<IIII", data[i:i + 16])
        out.append((sec * 1_000_000 + usec, data[i + 16:i + 16 + incl]))
        i += 16 + incl
    return data[:24], out


def article_session(recs):
    """REQA … READ page 3 and its answer from the trace's first session, then FAST_READ 04-0F."""
    first = [(t, r) for t, r in recs if r[1] in (0xFE, 0xFF)]
    upto = next(i for i, (_, r) in enumerate(first) if r[1] == 0xFE and r[4:6] == b"\x30\x03") + 2
    session = first[:upto]
    pages = {}
    for (_, req), (_, ans) in zip(first, first[1:]):
        if req[1] == 0xFE and req[4] == 0x30 and ans[1] == 0xFF and len(ans) == 4 + 18:
            for k in range(4):
                pages.setdefault(req[5] + k, ans[4 + 4 * k:8 + 4 * k])
        if req[1] == 0xFE and req[4] == 0x3A and ans[1] == 0xFF:
            for k in range(req[6] - req[5] + 1):
                pages.setdefault(req[5] + k, ans[4 + 4 * k:8 + 4 * k])
    data = b"".join(pages[p] for p in range(4, 16))
    command = bytes([0x3A, 0x04, 0x0F])
    t = session[-1][0]
    for i, payload in enumerate((command + bytes(crc_a(command)), data + bytes(crc_a(data)))):
        header = bytes([0, 0xFE if i == 0 else 0xFF]) + struct.pack(">H", len(payload))
        session.append((t + 1000 * (i + 1), header + payload))
    return session


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=1_000_000)
    ap.add_argument("--no-auth", action="store_true")
    ap.add_argument("--article", action="store_true")
    ap.add_argument("--source", default="Traces/ntag215-password-read.pcap")
    ap.add_argument("-o", "--output", default="-")
    args = ap.parse_args()
    header, recs = records(args.source)
    if args.article:
        recs = article_session(recs)
    if args.no_auth:
        kept = []
        skip_answer = False
        for t, r in recs:
            if skip_answer:
                skip_answer = False
                if r[1] == 0xFF:
                    continue
            if len(r) > 4 and r[1] == 0xFE and r[4] == 0x1B:
                skip_answer = True
                continue
            kept.append((t, r))
        recs = kept
    start = recs[0][0]
    span = recs[-1][0] - start + 100_000
    out = sys.stdout.buffer if args.output == "-" else open(args.output, "wb")
    write(out, header, ((t + rep * span, r) for rep in itertools.count() for t, r in recs), args.frames)


def write(out, header, timed, frames):
    """Writes the pcap header, then the first `frames` of the (microseconds, record) pairs."""
    out.write(header)
    chunk = []
    for ts, r in itertools.islice(timed, frames):
        chunk.append(struct.pack("<IIII", ts // 1_000_000, ts % 1_000_000, len(r), len(r)) + r)
        if len(chunk) > 10000:
            out.write(b"".join(chunk))
            chunk = []
    out.write(b"".join(chunk))
    out.close()

if __name__ == "__main__":
    main()
