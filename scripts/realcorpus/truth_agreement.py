#!/usr/bin/env python3
"""How far can any detector agree with this corpus's ground truth? The internal-attack rule
(make_realcorpus.py's module docstring) has constants a reasonable annotator could have set a
little differently; each variant below changes one of them, recomputes every one-shot's onsets
from its audio, and scores them against the annotation with the same ±25 ms one-to-one
matching `tactus evaluate` uses. Where two equally defensible rules agree at F 0.9, no
detector can score much above 0.9 against either. Tactus's own onsets are scored against each
rule beside it. The last column scores the internal attacks alone (each rule's onsets after a
sound's start against the annotated internal attacks): the agreement the multi-attack target
is measured against.

    python3 scripts/realcorpus/truth_agreement.py [--tactus .build/release/tactus]   (after make realcorpus)
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import soundfile as sf

import make_realcorpus as corpus

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from eval_onsets import match, prf  # noqa: E402  (the matching and scores every onset score here uses)

ROOT = Path(__file__).resolve().parent.parent.parent
VARIANTS = {"rise 12 dB (15)": dict(rise_db=12), "rise 18 dB": dict(rise_db=18),
            "within 25 dB of the peak (20)": dict(within_db=25), "within 15 dB": dict(within_db=15),
            "80 ms after the previous (100)": dict(gap_s=0.08), "150 ms after": dict(gap_s=0.15),
            "quietest of 40 ms before (50)": dict(look_blocks=4), "quietest of 80 ms": dict(look_blocks=8)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tactus", default=str(ROOT / ".build/release/tactus"))
    args = parser.parse_args()
    print("half     rule                             onsets (annotated)  F@25 vs annotation  Tactus F@25 vs rule"
          "  F@25 of internal attacks vs annotation")
    for half in ("dev", "heldout"):
        annotations = sorted((ROOT / "realcorpus" / half).glob("oneshot-*.json"))
        sounds, detected = [], []
        for path in annotations:
            annotation = json.loads(path.read_text())
            audio = path.with_name(annotation["file"])
            samples, rate = sf.read(str(audio), always_2d=True)
            lead = int(0.1 * rate)  # the one-shots are written after 0.1 s of silence
            internal = [t for t, kind in zip(annotation["onsets"], annotation["onsetKinds"]) if kind == "internal"]
            sounds.append((annotation["onsets"], internal, samples.mean(axis=1)[lead:], rate, lead))
            result = subprocess.run([args.tactus, "analyze", str(audio)], capture_output=True, text=True, check=True)
            detected.append([o["time"] for o in json.loads(result.stdout)["onsets"]])
        for name, constants in {"as annotated": {}, **VARIANTS}.items():
            agree = [0, 0, 0]
            tactus = [0, 0, 0]
            internal_agree = [0, 0, 0]
            for (annotated, internal, stem, rate, lead), found_by_tactus in zip(sounds, detected):
                rule = [(lead + s) / rate for s in corpus.attacks(stem, rate, **constants)]
                # [matched, detected, truth], as `prf` takes them.
                agree = [agree[0] + len(match(rule, annotated, 0.025)), agree[1] + len(rule), agree[2] + len(annotated)]
                tactus = [tactus[0] + len(match(found_by_tactus, rule, 0.025)), tactus[1] + len(found_by_tactus), tactus[2] + len(rule)]
                # The rule's first onset is the sound's start; the rest are its internal attacks.
                internal_agree = [internal_agree[0] + len(match(rule[1:], internal, 0.025)), internal_agree[1] + len(rule[1:]),
                                  internal_agree[2] + len(internal)]
            print(f"{half:8s} {name:32s} {agree[1]:4d} ({agree[2]:4d})         "
                  f"{prf(*agree)[2]:.3f}               {prf(*tactus)[2]:.3f}               "
                  f"{prf(*internal_agree)[2]:.3f}")


if __name__ == "__main__":
    main()
