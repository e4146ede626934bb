#!/usr/bin/env python3
"""Generate NDEF messages, valid and deliberately broken, and report how ndeflib decodes them.

Usage: ndef-oracle.py --count N --seed S

Prints one JSON object per line:
  i        message number
  label    what the generator made (e.g. "text", "broken:mb-clear", "payload:uri-bad-code")
  hex      the message bytes
  strict   ndeflib strict accepts (message_decoder(..., errors='strict') with its record classes)
  error    the exception ndeflib raised in strict mode ("" when accepted)
  framing  ndeflib strict accepts with known_types={} (record framing only, no payload checks)
  records  when framing accepts: each record's type, name (ID, Latin-1 hex) and payload (wire hex)
  values   when strict accepts: what ndeflib read from Text, URI and Smart Poster payloads
  types    media-type and absolute-URI type strings ndeflib classified, and whether it could place them

Only the standard library and ndeflib (PyPI `ndeflib`) are used. Payloads are taken from the
framing-only decode because ndeflib re-encodes the payload of the record types it knows
(Record.data), which would compare its encoder rather than the bytes on the wire.
"""
import argparse
import json
import random
import sys

import ndef

from ndef_oracle_cases import Gen, broken_framing, broken_payload, valid_message


# What ndeflib says

# ndeflib turns every generic record's TNF and TYPE into a type string and back; the way back
# (Record._encode_type) classifies media types and absolute URIs by pattern and raises on
# strings it cannot place. Its verdict on each string is recorded so that the comparison can
# tell this heuristic apart from the RFC 2046 / RFC 3986 syntax check nfctrace applies.
JUDGED = {}
_encode_type = ndef.Record._encode_type.__func__


def _judging_encode_type(cls, value):
    key = value.decode("latin-1") if isinstance(value, (bytes, bytearray)) else value
    try:
        result = _encode_type(cls, value)
    except Exception:
        JUDGED[key] = False
        raise
    JUDGED.setdefault(key, True)
    return result


ndef.Record._encode_type = classmethod(_judging_encode_type)

def verdict(data, known_types=None):
    try:
        if known_types is None:
            records = list(ndef.message_decoder(data, errors="strict"))
        else:
            records = list(ndef.message_decoder(data, errors="strict", known_types=known_types))
        return True, "", records
    except Exception as e:  # any exception means ndeflib did not accept the message
        return False, "%s: %s" % (type(e).__name__, e), None


def values(records):
    out = []
    for rec in records:
        v = {}
        if isinstance(rec, ndef.TextRecord):
            v = {"text": rec.text, "language": rec.language, "encoding": rec.encoding}
        elif isinstance(rec, ndef.UriRecord):
            v = {"iri": rec.iri}
        elif isinstance(rec, ndef.SmartposterRecord):
            v = {"iri": rec.resource.iri if rec.resource else None, "action": rec.action}
        out.append(v)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    g = Gen(random.Random(args.seed))
    for i in range(args.count):
        roll = g.r.random()
        if roll < 0.45:
            label, data = valid_message(g)
        elif roll < 0.75:
            base_label, base = valid_message(g)
            op, data = broken_framing(g, base)
            label = "broken:%s:%s" % (op, base_label)
        else:
            op, data = broken_payload(g)
            label = "payload:" + op
        JUDGED.clear()
        strict, error, typed = verdict(data)
        framing, _, plain = verdict(data, known_types={})
        line = {"i": i, "label": label, "hex": data.hex(), "strict": strict, "error": error, "framing": framing,
                "types": {k: v for k, v in JUDGED.items() if not k.startswith(("urn:nfc:", "unknown", "unchanged"))
                          and k != ""}}
        if plain is not None:
            line["records"] = [{"type": rec.type, "name": rec.name.encode("latin-1").hex(), "payload": bytes(rec.data).hex()}
                               for rec in plain]
        if typed is not None:
            line["values"] = values(typed)
        sys.stdout.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    main()
