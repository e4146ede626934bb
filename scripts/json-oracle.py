#!/usr/bin/env python3
"""Check nfctrace's JSON output with Python's own JSON parser (the conformance suite's oracle).

Usage:
  json-oracle.py strings        stdin: lines "HEX<TAB>JSON"; HEX is the UTF-8 of the string that
                                the JSON object's "comment" and "summary" members and its first
                                field's "label" and "value" must each decode to
  json-oracle.py lines FILE...  every non-empty line of every FILE must be one JSON value

Bytes are decoded as strict UTF-8 first (an encoded surrogate or a cut sequence is an error,
as it is for any consumer that takes JSON as UTF-8, RFC 8259 section 8.1), then parsed with
json.loads, which rejects raw control characters in strings. Prints one line per failure and
a last line "checked N, failed M"; exits 1 when anything failed.

Only the standard library is used.
"""
import json
import sys


def parse(raw):
    text = raw.decode("utf-8", errors="strict")
    return json.loads(text)


def strings():
    checked = failed = 0
    for raw in sys.stdin.buffer.read().split(b"\n"):
        if not raw:
            continue
        checked += 1
        hex_part, _, json_part = raw.partition(b"\t")
        try:
            expected = bytes.fromhex(hex_part.decode("ascii")).decode("utf-8")
            o = parse(json_part)
            field = (o.get("fields") or [{}])[0]
            for name, got in (("comment", o.get("comment")), ("summary", o.get("summary")),
                              ("label", field.get("label")), ("value", field.get("value"))):
                if got != expected:
                    failed += 1
                    print(f"line {checked} {name}: expected {expected!r}, parsed {got!r} from {json_part[:200]!r}")
                    break
        except (ValueError, UnicodeDecodeError) as e:
            failed += 1
            print(f"line {checked}: {e} in {json_part[:200]!r}")
    return checked, failed


def lines(paths):
    checked = failed = 0
    for path in paths:
        with open(path, "rb") as f:
            for number, raw in enumerate(f.read().split(b"\n"), 1):
                if not raw.strip():
                    continue
                checked += 1
                try:
                    parse(raw)
                except (ValueError, UnicodeDecodeError) as e:
                    failed += 1
                    print(f"{path}:{number}: {e}")
    return checked, failed


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "strings":
        checked, failed = strings()
    elif len(sys.argv) >= 3 and sys.argv[1] == "lines":
        checked, failed = lines(sys.argv[2:])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    print(f"checked {checked}, failed {failed}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
