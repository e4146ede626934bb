#!/usr/bin/env python3
"""Generates a large mixed-technology pcap (nfctrace's LINKTYPE_USER3, docs/trace-format.md) for
benchmarks, stdlib only.

The inputs are pcaps in that encapsulation, as `nfctrace convert --link-type nfctrace` writes
them (scripts/bench-dissect converts the traces named there: MIFARE Classic, ISO-DEP with EMV,
FeliCa, ISO 15693). Their records are written one trace after the other, round and round, with
timestamps shifted so that time only moves forward (100 ms between traces), until exactly
--frames records are written.
"""
import argparse
import importlib.util
import itertools
import os
import struct
import sys

LINKTYPE_USER3 = 150

# The pcap reading and writing of gen-ntag-pcap.py (a file name with a dash: loaded by path).
_spec = importlib.util.spec_from_file_location("gen_ntag_pcap", os.path.join(os.path.dirname(__file__), "gen-ntag-pcap.py"))
ntag = importlib.util.module_from_spec(_spec)
sys.path.insert(0, os.path.dirname(__file__))
_spec.loader.exec_module(ntag)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=200_000)
    ap.add_argument("-o", "--output", default="-")
    ap.add_argument("inputs", nargs="+", help="pcaps with LINKTYPE_USER3")
    args = ap.parse_args()
    traces = []
    for path in args.inputs:
        header, recs = ntag.records(path)
        linktype = struct.unpack("<I", header[20:24])[0]
        assert linktype == LINKTYPE_USER3, f"{path}: link type {linktype}, expected {LINKTYPE_USER3}"
        assert recs, f"{path}: no records"
        traces.append(recs)

    def timed():
        clock = 0   # where the next trace starts, in microseconds
        while True:
            for recs in traces:
                start = recs[0][0]
                for t, r in recs:
                    yield clock + (t - start), r
                clock += recs[-1][0] - start + 100_000

    out = sys.stdout.buffer if args.output == "-" else open(args.output, "wb")
    ntag.write(out, header, timed(), args.frames)


if __name__ == "__main__":
    main()
