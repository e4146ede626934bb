#!/usr/bin/env python3
"""Generates a large NTAG pcap (LINKTYPE_ISO_14443) for benchmarks, stdlib only.

It repeats the sessions of Traces/ntag215-password-read.pcap (activation, GET_VERSION,
PWD_AUTH/PACK, READ, FAST_READ, a wrong password, WRITE/ACK, HLTA, field on/off), shifting
timestamps, until exactly --frames records are written. --no-auth leaves out PWD_AUTH and its
answer (tshark mis-reads PWD_AUTH as a chained ISO-DEP I-block, which makes it quadratic).
"""
import argparse
import struct
import sys


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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=1_000_000)
    ap.add_argument("--no-auth", action="store_true")
    ap.add_argument("--source", default="Traces/ntag215-password-read.pcap")
    ap.add_argument("-o", "--output", default="-")
    args = ap.parse_args()
    header, recs = records(args.source)
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
    out.write(header)
    written = 0
    rep = 0
    chunk = []
    while written < args.frames:
        for t, r in recs:
            if written == args.frames:
                break
            ts = t + rep * span
            chunk.append(struct.pack("<IIII", ts // 1_000_000, ts % 1_000_000, len(r), len(r)) + r)
            written += 1
        rep += 1
        if len(chunk) > 10000:
            out.write(b"".join(chunk))
            chunk = []
    out.write(b"".join(chunk))
    out.close()


if __name__ == "__main__":
    main()
