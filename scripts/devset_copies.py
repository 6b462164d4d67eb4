#!/usr/bin/env python3
"""Writes COPIES copies of every document of a folder of JSON documents into DST, ids
suffixed `_r000`, `_r001`, … (a larger corpus of the same text, for speed measurements).

    python3 scripts/devset_copies.py ../shared/devset/corpus /tmp/devset-x100 100
"""
import json
import pathlib
import sys

src, dst, copies = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), int(sys.argv[3])
dst.mkdir(parents=True, exist_ok=True)
for f in sorted(src.glob("*.json")):
    doc = json.loads(f.read_text(encoding="utf-8"))
    for r in range(copies):
        d = dict(doc, id=f"{doc['id']}_r{r:03d}")
        (dst / f"{d['id']}.json").write_text(json.dumps(d), encoding="utf-8")
