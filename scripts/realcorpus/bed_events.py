#!/usr/bin/env python3
"""Are the false alarms in the ambience mixtures the beds' own events? Rebuilds each ambience
mixture's bed (the looped ambience, as make_realcorpus.py lays it), runs `tactus analyze` on the
bed alone (no relative gate: the bed is all there is), and counts the mixture's unmatched
detections (no annotated onset within ±25 ms) that fall within ±25 ms of one the bed alone
gives. The annotation cannot hold the beds' events: nobody placed them.

    python3 scripts/realcorpus/bed_events.py [--tactus .build/release/tactus]   (after make realcorpus)
"""
from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import soundfile as sf

import make_realcorpus as corpus

ROOT = Path(__file__).resolve().parent.parent.parent
TOLERANCE = 0.025


def onsets(tactus: str, audio: Path, *settings: str) -> list[float]:
    result = subprocess.run([tactus, "analyze", str(audio), *settings], capture_output=True, text=True, check=True)
    return [o["time"] for o in json.loads(result.stdout)["onsets"]]


def near(t: float, times: list[float]) -> bool:
    return any(abs(t - u) <= TOLERANCE for u in times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tactus", default=str(ROOT / ".build/release/tactus"))
    args = parser.parse_args()
    fetched = corpus.fetch(corpus.package_list("packages.txt"), ROOT / "realcorpus-cache")
    loops: dict[str, tuple[np.ndarray, int]] = {}

    def loop(source: str) -> tuple[np.ndarray, int]:
        if source not in loops:
            package, path = source.split(":", 1)
            member = next(data for name, data in corpus.sounds(fetched[package][1]) if name == path)
            mono, rate = corpus.decode(member)
            loops[source] = (mono / (np.max(np.abs(mono)) + 1e-12), rate)
        return loops[source]

    with tempfile.TemporaryDirectory() as scratch:
        bed_file = Path(scratch) / "bed.wav"
        for half in ("dev", "heldout"):
            unmatched = in_bed = 0
            for path in sorted((ROOT / "realcorpus" / half).glob("ambience*.json")):
                annotation = json.loads(path.read_text())
                audio = path.with_name(annotation["file"])
                frames, rate = sf.info(str(audio)).frames, sf.info(str(audio)).samplerate
                samples, source_rate = loop(annotation["ambience"])
                bed = corpus.ambience_bed(samples, source_rate, rate, frames)
                sf.write(str(bed_file), (0.5 * bed).astype(np.float32), rate, subtype="FLOAT")
                bed_onsets = onsets(args.tactus, bed_file, "--set", "peaks.relativeGateDb=120")
                for t in onsets(args.tactus, audio):
                    if not near(t, annotation["onsets"]):
                        unmatched += 1
                        in_bed += near(t, bed_onsets)
            print(f"{half}: {unmatched} detections match no annotated onset; the bed alone gives {in_bed} of them")


if __name__ == "__main__":
    main()
