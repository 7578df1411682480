#!/usr/bin/env python3
"""Which brightness measure tells sound categories apart? Measures candidate features on the
attack (the first `--attack-ms` after the first onset) of every one-shot of a corpus half and
prints, per category, their means, and how far booms/explosions lie from clicks/coins/glass
in units of the pooled standard deviation (higher separates better).

Candidates (one 4096-point FFT of the Hann-windowed attack, power spectrum P(f)):
  centroid   log2 of the power-weighted mean frequency (what Tactus maps today)
  din        DIN 45692 / Zwicker sharpness in acum from a specific-loudness approximation:
             band power per Bark band z (Traunmüller's Hz→Bark), N'(z) = P_z^0.23, weight
             g(z) = 1 up to 15.8 Bark then 0.15·e^(0.42(z−15.8)) + 0.85,
             S = 0.11 · Σ N'(z)·g(z)·z / Σ N'(z)
  lowshare   fraction of the power below 200 Hz (weight of the lows)
  flatness   geometric / arithmetic mean of P(f) over 50 Hz–16 kHz
  centroid-low  centroid minus 4·lowshare octaves (brightness penalised by weight)

Usage: sharpness_study.py [--half realcorpus/dev] [--attack-ms 40]
"""
from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

import numpy as np
import soundfile as sf

ROOT = Path(__file__).resolve().parent.parent.parent
HEAVY = {"explosion"}
CRISP = {"click", "coin", "glass"}


def bark(hz: np.ndarray) -> np.ndarray:
    return 26.81 * hz / (1960 + hz) - 0.53


def features(attack: np.ndarray, rate: int) -> dict[str, float]:
    n = 4096
    frame = np.zeros(n)
    frame[:min(n, len(attack))] = attack[:n] * np.hanning(min(n, len(attack)))
    power = np.abs(np.fft.rfft(frame)) ** 2
    hz = np.fft.rfftfreq(n, 1 / rate)
    band = (hz >= 20) & (hz <= min(16000, rate / 2))
    p, f = power[band] + 1e-20, hz[band]
    centroid = np.log2(np.sum(p * f) / np.sum(p))
    z = bark(f)
    edges = np.arange(0, 25)
    specific = np.array([np.sum(p[(z >= e) & (z < e + 1)]) for e in edges]) ** 0.23
    centres = edges + 0.5
    g = np.where(centres <= 15.8, 1.0, 0.15 * np.exp(0.42 * (centres - 15.8)) + 0.85)
    din = 0.11 * np.sum(specific * g * centres) / max(np.sum(specific), 1e-20)
    low = np.sum(p[f < 200]) / np.sum(p)
    flat_band = (f >= 50)
    flatness = np.exp(np.mean(np.log(p[flat_band]))) / np.mean(p[flat_band])
    return {"centroid": centroid, "din": din, "lowshare": low, "flatness": flatness,
            "centroid-low": centroid - 4 * low}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half", type=Path, default=ROOT / "realcorpus/dev")
    parser.add_argument("--attack-ms", type=float, default=40)
    args = parser.parse_args()
    by_category = defaultdict(list)
    for annotation in sorted(args.half.glob("oneshot-*.json")):
        truth = json.loads(annotation.read_text())
        samples, rate = sf.read(str(args.half / truth["file"]), always_2d=True)
        mono = samples.mean(axis=1)
        start = int(truth["onsets"][0] * rate)
        attack = mono[start:start + int(args.attack_ms / 1000 * rate)]
        by_category[truth["category"]].append(features(attack, rate))
    names = ["centroid", "din", "lowshare", "flatness", "centroid-low"]
    print("| category | n | " + " | ".join(names) + " |")
    print("|---|---:|" + "---:|" * len(names))
    for category in sorted(by_category):
        rows = by_category[category]
        print(f"| {category} | {len(rows)} | " + " | ".join(f"{np.mean([r[n] for r in rows]):.2f}" for n in names) + " |")
    heavy = [r for c in HEAVY for r in by_category.get(c, [])]
    crisp = [r for c in CRISP for r in by_category.get(c, [])]
    print("\nseparation, (mean crisp − mean heavy) / pooled sd:")
    for n in names:
        a, b = np.array([r[n] for r in heavy]), np.array([r[n] for r in crisp])
        sd = np.sqrt((a.var() + b.var()) / 2) or 1
        print(f"  {n:13s} {(b.mean() - a.mean()) / sd:+.2f}")


if __name__ == "__main__":
    main()
