#!/usr/bin/env python3
"""DIN 45692 (Zwicker) sharpness of the one-shots' bodies, per category: does a perceptual
sharpness of the sound itself put explosions' and impacts' bodies below clicks', coins' and
glass's? (Issue 31's body-sharpness target; measured beside `feel.py`'s played body sharpness.)

Each one-shot (mono mixdown, resampled to 48 kHz, peak at 90 dB SPL) through MOSQITO's
time-varying Zwicker loudness (ISO 532-1, free field) and DIN 45692 sharpness; its body is
from 30 ms after the loudest loudness step to the end, sharpness averaged weighted by loudness.
Needs `pip install mosqito==1.2.1` (evaluation only; matplotlib, which it imports for plots,
is stubbed out). Slow: about 10 s per second of audio.

    python3 scripts/realcorpus/din_sharpness.py realcorpus/dev [--json out.json]
"""
import argparse
import json
import sys
import types
import warnings
from collections import defaultdict
from math import gcd
from pathlib import Path

import numpy as np
import soundfile as sf
from scipy.signal import resample_poly

for name in ["matplotlib", "matplotlib.pyplot"]:
    sys.modules.setdefault(name, types.ModuleType(name))
from mosqito.sq_metrics import loudness_zwtv, sharpness_din_tv  # noqa: E402

CATEGORIES = ["explosion", "impact", "click", "coin", "glass"]


def body_sharpness(path: Path) -> tuple[float, float]:
    """(body, whole sound) loudness-weighted DIN sharpness in acum."""
    x, rate = sf.read(str(path), always_2d=True)
    x = x.mean(axis=1)
    if rate != 48000:
        g = gcd(48000, rate)
        x = resample_poly(x, 48000 // g, rate // g)
    x = np.concatenate([x / np.abs(x).max() * 2e-5 * 10 ** (90 / 20) * np.sqrt(2), np.zeros(4800)])
    sharpness, _ = sharpness_din_tv(x, 48000, weighting="din", skip=0)
    loudness, _, _, times = loudness_zwtv(x, 48000, field_type="free")
    n = min(len(sharpness), len(loudness))
    s, w = np.nan_to_num(np.asarray(sharpness)[:n]), np.asarray(loudness)[:n]
    first = min(n - 1, int(np.argmax(w)) + int(0.03 / (times[1] - times[0])))
    body = float(np.average(s[first:], weights=w[first:])) if w[first:].sum() > 0 else float("nan")
    whole = float(np.average(s, weights=w)) if w.sum() > 0 else float("nan")
    return body, whole


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("half", type=Path)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    warnings.filterwarnings("ignore")
    rows = {}
    for annotation in sorted(args.half.glob("oneshot-*.json")):
        truth = json.loads(annotation.read_text())
        if truth["category"] in CATEGORIES:
            rows[truth["file"]] = (truth["category"], *body_sharpness(args.half / truth["file"]))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    by = defaultdict(list)
    for category, body, whole in rows.values():
        by[category].append((body, whole))
    print("| category | files | body (acum) | whole sound (acum) |\n|---|---:|---:|---:|")
    for category in CATEGORIES:
        if by[category]:
            values = np.array(by[category])
            print(f"| {category} | {len(values)} | {np.nanmean(values[:, 0]):.2f} | {np.nanmean(values[:, 1]):.2f} |")


if __name__ == "__main__":
    main()
