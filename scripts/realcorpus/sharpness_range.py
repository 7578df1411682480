#!/usr/bin/env python3
"""How the within-file sharpness target (`tactus evaluate`'s "sharpness↔log centroid Spearman")
depends on how far each file's brightness moves at all.

For every file `tactus evaluate --verbose` scores, the spread of its brightness: the 5…95 %
range, in octaves, of the log2 magnitude centroid (20 Hz…20 kHz) of a 20 ms Hann frame every
10 ms, over the blocks within 40 dB of the file's loudest (as `ReferenceEnvelope` and `Fidelity`
measure it, in numpy), and the median step between neighbouring frames (the measure's own
frame-to-frame noise). Prints the mean Spearman per band of spread.

    python3 scripts/realcorpus/sharpness_range.py realcorpus/dev --tactus .build/release/tactus [--set k=v ...]
"""
from __future__ import annotations

import argparse
import re
import subprocess
from pathlib import Path

import numpy as np
import soundfile as sf

BANDS = [(0, 0.1), (0.1, 0.25), (0.25, 0.5), (0.5, 1), (1, np.inf)]


def spread(path: Path) -> tuple[float, float]:
    """(5…95 % range, median frame-to-frame step) of the log2 centroid, in octaves."""
    x, rate = sf.read(str(path), always_2d=True)
    x = x.mean(axis=1)
    hop = int(round(0.01 * rate))
    count = -(-len(x) // hop)
    level = np.array([10 * np.log10(np.mean(x[k * hop:(k + 1) * hop] ** 2) + 1e-20) for k in range(count)])
    width = int(round(0.02 * rate))
    window = np.hanning(width)
    freqs = np.fft.rfftfreq(width, 1 / rate)
    band = (freqs >= 20) & (freqs <= 20000)
    padded = np.concatenate([np.zeros(width // 2), x, np.zeros(width)])
    centroids = []
    for k in range(count):
        magnitude = np.abs(np.fft.rfft(padded[k * hop:k * hop + width] * window))[band]
        total = magnitude.sum()
        centroids.append(np.log2((freqs[band] * magnitude).sum() / total) if total > 0 else 0.0)
    c = np.array(centroids)[level > level.max() - 40]
    if len(c) < 3:
        return 0.0, 0.0
    return float(np.percentile(c, 95) - np.percentile(c, 5)), float(np.median(np.abs(np.diff(c))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("half", type=Path)
    parser.add_argument("--tactus", default=".build/release/tactus")
    parser.add_argument("--set", action="append", default=[], dest="sets")
    args = parser.parse_args()
    command = [args.tactus, "evaluate", str(args.half), "--verbose"]
    for s in args.sets:
        command += ["--set", s]
    output = subprocess.run(command, capture_output=True, text=True).stdout
    rows = []
    for line in output.splitlines():
        match = re.match(r"(\S+)\s+F@25.*sharpness ρ (\S+)\s", line)
        if match and match.group(2) != "–":
            rows.append((float(match.group(2)), *spread(args.half / match.group(1))))
    rho, ranges, steps = (np.array(column) for column in zip(*rows))
    print(f"{len(rows)} files, mean Spearman {rho.mean():.3f}")
    print("| brightness range (5…95 %) | files | mean Spearman | median step / range |")
    print("|---|---:|---:|---:|")
    for low, high in BANDS:
        inside = (ranges >= low) & (ranges < high)
        if inside.any():
            print(f"| {low}…{high} octave | {inside.sum()} | {rho[inside].mean():.3f} | "
                  f"{np.median(steps[inside] / np.maximum(ranges[inside], 1e-9)):.2f} |")
    for low in (0.1, 0.25):
        inside = ranges >= low
        print(f"files whose brightness moves ≥ {low} octave: {inside.sum()}, mean Spearman {rho[inside].mean():.3f}")


if __name__ == "__main__":
    main()
