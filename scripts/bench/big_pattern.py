#!/usr/bin/env python3
"""Big patterns stay fast: `tactus validate` and `tactus preview` on AHAPs of 20,000 and
200,000 events, with the ratio between the two sizes in the same run (n log n shows about
11.6×, n² about 100×). Least CPU (user + sys) of `--repeats` runs each.

The patterns are generated here, deterministically: an event every 5 ms, one in ten a 4 ms
HapticContinuous, the rest HapticTransients.

Usage: big_pattern.py --tactus .build/release/tactus [--work bench-out/big] [--repeats 2]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
from pathlib import Path


def pattern(events: int) -> dict:
    elements = []
    for i in range(events):
        time = round(0.005 * (i + 1), 5)
        parameters = [{"ParameterID": "HapticIntensity", "ParameterValue": 0.5 if i % 10 == 0 else 0.8},
                      {"ParameterID": "HapticSharpness", "ParameterValue": 0.5 if i % 10 == 0 else 0.3}]
        event = {"Time": time, "EventType": "HapticContinuous", "EventDuration": 0.004} if i % 10 == 0 \
            else {"Time": time, "EventType": "HapticTransient"}
        event["EventParameters"] = parameters
        elements.append({"Event": event})
    return {"Version": 1.0, "Pattern": elements}


def cpu_seconds(command: list[str], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tactus", required=True)
    parser.add_argument("--work", default="bench-out/big")
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    work = Path(args.work)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    rows = []
    for events in (20_000, 200_000):
        ahap = work / f"events{events}.ahap"
        ahap.write_text(json.dumps(pattern(events)))
        validate = cpu_seconds([args.tactus, "validate", "--quiet", str(ahap)], args.repeats)
        preview = cpu_seconds([args.tactus, "preview", str(ahap), "-o", str(work / "preview"), "--quiet"], args.repeats)
        rows.append((events, validate, preview))
    print("| events | validate CPU s | preview CPU s |")
    print("|---:|---:|---:|")
    for events, validate, preview in rows:
        print(f"| {events:,} | {validate:.2f} | {preview:.2f} |")
    (small, large) = rows
    print(f"| ratio 200k / 20k | {large[1] / small[1]:.1f}× | {large[2] / small[2]:.1f}× |")


if __name__ == "__main__":
    main()
