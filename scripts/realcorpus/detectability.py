#!/usr/bin/env python3
"""How many of the hits buried in pink noise can any local detector find? For each onset of the
noise mixtures whose own SNR (`onsetSnrDb`) is under 10 dB, four local statistics are measured
around its annotated time, and each is set against its own values in pink noise alone (the
generator's noise, 2 minutes per sample rate, analysed the same way): the recall each statistic
reaches on those hits when its threshold lets through 1, 6, 30 or 60 of the noise's own local
maxima per minute. A hit that a statistic scores no higher than the noise's own fluctuations
cannot be told from noise by it: a threshold that takes the hit takes the noise's maxima too.

The statistics, at frame `m` (20 ms Hann window, 10 ms hop, as the default preset):
- `novelty`: Tactus's SuperFlux novelty over its local median (`tactus analyze`'s frames).
- `level rise`: the loudest of frames m..m+2 (dB) over the median of the 160 ms before m−1.
- `band excess`: each 1/12-octave band's level over its median in the 300 ms before m−1, in
  units of its own spread there (1.48 MAD + 0.5 dB); the mean of the highest sixth of bands
  (a hit that lifts only a few bands out of the noise).
- `short blocks`: the loudest 2.5 ms block of the frame and the hop after it over the loudest
  block of the 60 ms before the frame.
A hit's value is the largest in frames −1…+3 around its annotated time.

    python3 scripts/realcorpus/detectability.py [--tactus .build/release/tactus]   (after make realcorpus)
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import soundfile as sf

import make_realcorpus as corpus

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from eval_onsets import match  # noqa: E402  (the matching every onset score here uses)

ROOT = Path(__file__).resolve().parent.parent.parent
NAMES = ("novelty", "level rise", "band excess", "short blocks")
FALSE_ALARMS_PER_MINUTE = (1, 6, 30, 60)
NOISE_SECONDS = 120


def filterbank(rate: int, size: int, low: float = 30, high: float = 16000, per_octave: int = 12) -> np.ndarray:
    """Triangular log-frequency bands on the power spectrum, as Tactus's LogFilterbank builds them."""
    bin_hz, bins = rate / size, size // 2 + 1
    centres: list[int] = []
    f = max(low, bin_hz)
    while f <= min(high, rate / 2):
        b = int(round(f / bin_hz))
        if b < bins and (not centres or centres[-1] != b):
            centres.append(b)
        f *= 2 ** (1 / per_octave)
    weights = np.zeros((len(centres) - 2, bins))
    for i in range(1, len(centres) - 1):
        lo, mid, hi = centres[i - 1], centres[i], centres[i + 1]
        for b in range(lo, hi + 1):
            weights[i - 1, b] = (b - lo + 1) / (mid - lo + 1) if b <= mid else (hi - b + 1) / (hi - mid + 1)
    return weights


def statistics(x: np.ndarray, rate: int, novelty: np.ndarray) -> dict[str, np.ndarray]:
    """Each statistic per frame (NaN where its history is too short)."""
    hop, window = int(round(0.01 * rate)), int(round(0.02 * rate))
    size = 1 << (window - 1).bit_length()
    frames = len(novelty)
    padded = np.concatenate([np.zeros(window // 2), x, np.zeros(window + 4 * hop)])
    spans = padded[np.arange(frames)[:, None] * hop + np.arange(window)[None, :]]
    power = np.abs(np.fft.rfft(spans * np.hanning(window + 1)[:-1], size, axis=1)) ** 2
    bands = 10 * np.log10(power @ filterbank(rate, size).T + 1e-30)
    level = 10 * np.log10(np.mean(spans ** 2, axis=1) + 1e-20)
    block = max(1, int(round(0.0025 * rate)))
    blocks = 10 * np.log10(np.mean(padded[:len(padded) // block * block].reshape(-1, block) ** 2, axis=1) + 1e-20)
    out = {name: np.full(frames, np.nan) for name in NAMES}
    out["novelty"] = novelty
    top = max(1, bands.shape[1] // 6)
    for m in range(31, frames - 3):
        out["level rise"][m] = level[m:m + 3].max() - np.median(level[m - 17:m - 1])
        past = bands[m - 30:m - 1]
        median = np.median(past, axis=0)
        spread = 1.4826 * np.median(np.abs(past - median), axis=0) + 0.5
        out["band excess"][m] = np.sort((bands[m] - median) / spread)[-top:].mean()
        start = m * hop // block  # the frame's span starts at m·hop in `padded`
        end = (m * hop + window + hop) // block
        before = max(0, start - int(round(0.06 * rate)) // block)
        out["short blocks"][m] = blocks[start:end].max() - blocks[before:start].max()
    return out


def novelty_over_median(tactus: str, audio: Path) -> tuple[np.ndarray, list[float]]:
    result = json.loads(subprocess.run([tactus, "analyze", str(audio)], capture_output=True, text=True,
                                       check=True).stdout)
    frames = result["frames"]
    delta = 4.0  # SuperFlux's method default: the threshold is the local median + delta
    return (np.array(frames["onset.novelty"]) - (np.array(frames["onset.threshold"]) - delta),
            [o["time"] for o in result["onsets"]])


def local_maxima(values: np.ndarray) -> np.ndarray:
    found = []
    for m in range(3, len(values) - 3):
        span = values[m - 3:m + 4]
        if not np.isnan(values[m]) and values[m] == np.nanmax(span):
            found.append(values[m])
    return np.array(found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tactus", default=str(ROOT / ".build/release/tactus"))
    args = parser.parse_args()
    noise_maxima: dict[int, dict[str, np.ndarray]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for half in ("dev", "heldout"):
            hits: dict[str, list[float]] = {name: [] for name in NAMES}
            snrs: list[float] = []
            found_by_snr: list[bool] = []
            rates: list[int] = []
            for path in sorted((ROOT / "realcorpus" / half).glob("noise*.json")):
                annotation = json.loads(path.read_text())
                audio = path.with_name(annotation["file"])
                x, rate = sf.read(str(audio), always_2d=True)
                if rate not in noise_maxima:
                    noise = corpus.pink_noise(NOISE_SECONDS * rate, np.random.default_rng(rate)) * 0.1
                    noise_file = Path(scratch) / f"pink-{rate}.wav"
                    sf.write(str(noise_file), noise, rate, subtype="FLOAT")
                    values = statistics(noise, rate, novelty_over_median(args.tactus, noise_file)[0])
                    noise_maxima[rate] = {name: local_maxima(v) for name, v in values.items()}
                novelty, detected = novelty_over_median(args.tactus, audio)
                values = statistics(x.mean(axis=1), rate, novelty)
                matched = {u for _, u in match(detected, annotation["onsets"], 0.025)}
                for onset, snr in zip(annotation["onsets"], annotation["onsetSnrDb"]):
                    if snr >= 10:
                        continue
                    m = int(round(onset / 0.01))
                    for name in NAMES:
                        hits[name].append(float(np.nanmax(values[name][max(0, m - 1):m + 4])))
                    snrs.append(snr)
                    found_by_snr.append(onset in matched)
                    rates.append(rate)
            for low, label in ((-np.inf, "under 10 dB"), (0, "0-10 dB")):
                chosen = [k for k, snr in enumerate(snrs) if snr >= low]
                print(f"{half}: {len(chosen)} onsets {label} of their own in the noise mixtures; Tactus finds "
                      f"{np.mean([found_by_snr[k] for k in chosen]):.2f} at ±25 ms")
                print("  recall at the noise's own local maxima per minute: "
                      + ", ".join(map(str, FALSE_ALARMS_PER_MINUTE)))
                for name in NAMES:
                    recalls = []
                    for per_minute in FALSE_ALARMS_PER_MINUTE:
                        allowed = int(per_minute * NOISE_SECONDS / 60)
                        caught = sum(hits[name][k] >= np.sort(noise_maxima[rates[k]][name])[-allowed] for k in chosen)
                        recalls.append(caught / len(chosen))
                    print(f"  {name:13s} " + "  ".join(f"{r:.2f}" for r in recalls))


if __name__ == "__main__":
    main()
