#!/usr/bin/env python3
"""Tactus's loudest momentary loudness against BS.1770's, file by file, in LU.

For every audio file under each folder given, the value Tactus maps with
(`tactus analyze FILE --format json`, member `loudestMomentaryLufs`) beside the reference:
libebur128 (through ctypes, mode M) fed the same mono signal the way Tactus fed it before it
measured loudness itself (libsndfile's float samples, channels averaged, a momentary read
every round(0.1 · rate) samples and at the end, the loudest kept). Without libebur128 on the
machine the reference is the same filter and blocks computed here with scipy (the two agree
to 0.0001 LU on the Corpus). Prints, per folder, the count, max and p95 of |error| and the
worst files; silent files (both at −200) are counted as exact.

Usage: loudness_error.py --tactus .build/release/tactus [--worst N] DIR...
   e.g. loudness_error.py --tactus .build/release/tactus Corpus realcorpus/dev realcorpus/heldout
"""
from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import soundfile

AUDIO = {".wav", ".flac", ".ogg", ".aiff", ".aif", ".mp3", ".caf"}
SILENT = -200.0


def mono(path: Path) -> tuple[np.ndarray, int]:
    """libsndfile's float samples, non-finite ones as 0, channels averaged in float32 (Mixdown)."""
    data, rate = soundfile.read(str(path), dtype="float32", always_2d=True)
    data = np.where(np.isfinite(data), data, np.float32(0))
    if data.shape[1] == 1:
        return np.ascontiguousarray(data[:, 0]), rate
    if data.shape[1] == 2:
        return ((data[:, 0] + data[:, 1]) * np.float32(0.5)).astype(np.float32), rate
    return (data.sum(axis=1, dtype=np.float32) * np.float32(1 / data.shape[1])).astype(np.float32), rate


def read_length(rate: int) -> int:
    return max(1, int(math.floor(rate * 0.1 + 0.5)))


class Ebur128:
    """libebur128 in mode M, read every 100 ms as LoudnessMeter read it."""

    def __init__(self) -> None:
        name = ctypes.util.find_library("ebur128")
        self.lib = ctypes.CDLL(name or "libebur128.so.1")
        self.lib.ebur128_init.restype = ctypes.c_void_p
        self.lib.ebur128_init.argtypes = [ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
        self.lib.ebur128_add_frames_float.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_float), ctypes.c_size_t]
        self.lib.ebur128_loudness_momentary.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_double)]
        self.lib.ebur128_destroy.argtypes = [ctypes.POINTER(ctypes.c_void_p)]

    def loudest(self, x: np.ndarray, rate: int) -> float:
        state = ctypes.c_void_p(self.lib.ebur128_init(1, rate, 1))  # EBUR128_MODE_M
        value, loudest, step = ctypes.c_double(), SILENT, read_length(rate)
        for start in range(0, len(x), step):
            piece = np.ascontiguousarray(x[start:start + step])
            self.lib.ebur128_add_frames_float(state, piece.ctypes.data_as(ctypes.POINTER(ctypes.c_float)), len(piece))
            if self.lib.ebur128_loudness_momentary(state, ctypes.byref(value)) == 0 and math.isfinite(value.value):
                loudest = max(loudest, value.value)
        self.lib.ebur128_destroy(ctypes.byref(state))
        return loudest


def k_weighting(rate: int) -> tuple[np.ndarray, np.ndarray]:
    """The BS.1770 shelf and RLB high-pass for `rate`, as libebur128 derives them, in cascade."""
    f0, gain, q = 1681.974450955533, 3.999843853973347, 0.7071752369554196
    k = math.tan(math.pi * f0 / rate)
    vh = 10 ** (gain / 20)
    vb = vh ** 0.4996667741545416
    a0 = 1 + k / q + k * k
    shelf_b = [(vh + vb * k / q + k * k) / a0, 2 * (k * k - vh) / a0, (vh - vb * k / q + k * k) / a0]
    shelf_a = [1, 2 * (k * k - 1) / a0, (1 - k / q + k * k) / a0]
    f0, q = 38.13547087602444, 0.5003270373238773
    k = math.tan(math.pi * f0 / rate)
    a0 = 1 + k / q + k * k
    return np.convolve(shelf_b, [1, -2, 1]), np.convolve(shelf_a, [1, 2 * (k * k - 1) / a0, (1 - k / q + k * k) / a0])


def scipy_loudest(x: np.ndarray, rate: int) -> float:
    """The same reading computed with scipy: the filter in double, blocks of floor(0.4 · rate)."""
    from scipy.signal import lfilter
    b, a = k_weighting(rate)
    y = lfilter(b, a, x.astype(np.float64))
    sums = np.concatenate([[0.0], np.cumsum(y * y)])
    step, block = read_length(rate), rate * 4 // 10
    ends = list(range(step, len(x) + 1, step)) + ([len(x)] if len(x) % step else [])
    loudest = SILENT
    for end in ends:
        energy = (sums[end] - sums[max(0, end - block)]) / block
        if energy > 0:
            loudest = max(loudest, -0.691 + 10 * math.log10(energy))
    return loudest


def tactus_loudest(tactus: Path, path: Path) -> float:
    out = subprocess.run([str(tactus), "analyze", str(path), "--format", "json"], capture_output=True, text=True, check=True)
    value = json.loads(out.stdout).get("loudestMomentaryLufs")
    if value is None:
        raise SystemExit(f"{tactus}: analyze reports no loudestMomentaryLufs (a build before the meter replaced libebur128?)")
    return float(value)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tactus", type=Path, required=True)
    parser.add_argument("--worst", type=int, default=5, help="worst files listed per folder")
    parser.add_argument("folders", type=Path, nargs="+")
    args = parser.parse_args()
    try:
        reference, reference_name = Ebur128().loudest, "libebur128"
    except OSError:
        reference, reference_name = scipy_loudest, "scipy (libebur128 not found)"
    print(f"reference: {reference_name}; Tactus: {args.tactus}")
    for folder in args.folders:
        rows = []
        for path in sorted(p for p in folder.rglob("*") if p.suffix.lower() in AUDIO and not p.name.startswith(".")):
            x, rate = mono(path)
            expected, measured = reference(x, rate), tactus_loudest(args.tactus, path)
            error = 0.0 if expected <= SILENT and measured <= SILENT else measured - expected
            rows.append((abs(error), error, path, rate, expected))
        if not rows:
            print(f"{folder}: no audio files")
            continue
        errors = np.array([row[0] for row in rows])
        print(f"{folder}: {len(rows)} files, |error| max {errors.max():.3f} LU, p95 {np.percentile(errors, 95):.3f} LU, "
              f"median {np.median(errors):.3f} LU, mean error {np.mean([row[1] for row in rows]):+.3f} LU")
        for _, error, path, rate, expected in sorted(rows, key=lambda row: row[0])[-args.worst:]:
            print(f"    {error:+.3f} LU  {path.relative_to(folder)} ({rate} Hz, reference {expected:.2f} LUFS)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
