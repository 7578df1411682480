#!/usr/bin/env python3
"""`make bench-live`: `tactus live` (TactusLive) against `tactus convert` and the annotations.

For every sound with an onset annotation (<stem>.json beside <stem>.wav, key "onsets") in the
folders given, runs `tactus live FILE --block B` and `tactus live FILE --reference` (what
`tactus convert` plays, in the same JSON lines) with the same preset options, and reports:
  - latency: emittedAt − time of every live transient (p50, p90, p95, max), in ms;
  - released between frames: the share of the live transients whose emittedAt is no frame's
    end (k × hop + the window's second half, `stft.windowMs` and `hopMs` as --set gives them,
    else the shipped 20 and 10 ms) nor the stream's end: 0 for every shipped decision, which all
    release on a frame's end; a trigger on the samples (BENCHMARKS.md, "Tried: a trigger on the
    samples") releases there;
  - with --own-frame-ms X: emittedAt − X − time, the latency had each transient been released
    when its own frame was complete: with peaks.liveDecision peak every transient is released
    X = the look-ahead frames × the hop (60 ms with the shipped presets) after that, so this is
    the floor of any decision on the onset's frame (centre − attack + half a window);
  - agreement: F-measure of the live transients against convert's at ±10 ms;
  - body: Pearson r of the live body intensity against convert's played intensity, on the hop
    grid (the hop read from the body times) over the instants where either plays (the live value
    holds until the next one), pooled over all frames and as the median of the per-file r;
  - F@25 of the live transients and of convert's against the annotation (greedy one-to-one
    matching in time order within ±25 ms, as `tactus evaluate` pairs them);
  - with --cpu, the CPU time (user + sys, getrusage) of `tactus live -` fed a 48 kHz stereo
    stream of the sounds concatenated (raw float32), per second of audio.

With --reference-cache DIR, each sound's --reference events are kept in DIR under a key made of
the tactus binary (path, size, modification time), the sound's path and the options passed to
both sides (--preset, --set); --reference-tactus T runs --reference with T (a build whose convert
is the same, checked with `tactus batch Corpus` and `diff -r`). Sweeping --live-set (parameters only the live side reads, such as
peaks.liveDecision and its thresholds, which `tactus convert` never reads) then runs convert
once per sound.

Usage: live.py --tactus .build/release/tactus DIR... [--block 512] [--set k=v]... [--live-set k=v]... [--preset P]
               [--cpu] [--live-only] [--own-frame-ms 60] [--reference-cache DIR]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import resource
import subprocess
import sys
import struct
import tempfile
from pathlib import Path


def events(tactus: str, wav: Path, extra: list[str]) -> list[dict]:
    out = subprocess.run([tactus, "live", str(wav), *extra], check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line]


def reference(tactus: str, wav: Path, extra: list[str], cache: str | None) -> list[dict]:
    """`tactus live WAV --reference` (what convert plays), from `cache` when it holds it."""
    if cache is None:
        return events(tactus, wav, ["--reference", *extra])
    binary = os.stat(tactus)
    key = json.dumps([os.path.abspath(tactus), binary.st_size, binary.st_mtime_ns, os.path.abspath(wav), extra])
    path = Path(cache) / (hashlib.sha256(key.encode()).hexdigest() + ".json")
    if path.exists():
        return json.loads(path.read_text())
    result = events(tactus, wav, ["--reference", *extra])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result))
    return result


def frame_ms(settings: list[str]) -> tuple[float, float]:
    """The analysis window and hop, ms, as --set gives them, else the shipped presets' 20 and 10."""
    values = dict(s.split("=", 1) for s in settings if "=" in s)
    return float(values.get("stft.windowMs", 20)), float(values.get("stft.hopMs", 10))


def wav_shape(wav: Path) -> tuple[int, int]:
    """A WAV file's sample rate and length in frames, from its fmt and data chunks (any
    encoding: the `wave` module reads integer PCM only)."""
    data = wav.read_bytes()
    rate = align = 0
    at = 12
    while at + 8 <= len(data):
        kind, size = data[at:at + 4], struct.unpack("<I", data[at + 4:at + 8])[0]
        if kind == b"fmt ":
            rate, align = struct.unpack("<I", data[at + 12:at + 16])[0], struct.unpack("<H", data[at + 20:at + 22])[0]
        elif kind == b"data":
            return rate, min(size, len(data) - at - 8) // max(1, align)
        at += 8 + size + (size & 1)
    raise ValueError(f"{wav}: no data chunk")


def between_frames(emitted: float, wav: Path, window_ms: float, hop_ms: float) -> bool:
    """Whether a live event emitted at `emitted` seconds came between frame ends (not at a frame's
    end, k × hop + window − window // 2 samples, nor at the stream's end)."""
    rate, length = wav_shape(wav)
    # Rounded half away from zero, as Swift's `rounded()` (Python's `round` halves to even).
    window = max(16, math.floor(window_ms * rate / 1000 + 0.5))
    hop = max(1, math.floor(hop_ms * rate / 1000 + 0.5))
    sample = round(emitted * rate)
    if sample >= length:
        return False
    return (sample - (window - window // 2)) % hop != 0


def f_measure(detected: list[float], truth: list[float], tolerance: float) -> tuple[int, int, int]:
    """True positives, false positives, false negatives: each truth onset paired with the
    nearest unpaired detection within the tolerance, in time order."""
    used = [False] * len(detected)
    tp = 0
    for t in truth:
        best, best_d = None, tolerance + 1e-12
        for i, d in enumerate(detected):
            if not used[i] and abs(d - t) <= best_d:
                best, best_d = i, abs(d - t)
        if best is not None:
            used[best] = True
            tp += 1
    return tp, len(detected) - tp, len(truth) - tp


def score(counts: tuple[int, int, int]) -> float:
    tp, fp, fn = counts
    return 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else 1.0


def add(a, b):
    return tuple(x + y for x, y in zip(a, b))


def grid(body: list[dict], hop: float, frames: int, holds: bool) -> list[float]:
    """The body's intensity at each hop: live values hold until the next one; reference values
    stand for their own hop only."""
    values = [0.0] * frames
    for k, e in enumerate(body):
        start = int(round(e["time"] / hop))
        end = int(round(body[k + 1]["time"] / hop)) if holds and k + 1 < len(body) else start + 1
        for j in range(max(0, start), min(frames, end)):
            values[j] = e["intensity"]
    return values


def body_hop(body: list[dict], default: float) -> float:
    """The analysis hop, seconds: the least step between body times (both sides write every hop
    while they play, at k × hop; 441 samples at 44.1 kHz is 10.023 ms, not 10), else `default`."""
    times = sorted({e["time"] for e in body})
    steps = [b - a for a, b in zip(times, times[1:]) if b - a > 1e-6]
    return min(steps) if steps else default


def pearson(a: list[float], b: list[float]) -> float:
    n = len(a)
    if n < 2:
        return float("nan")
    ma, mb = sum(a) / n, sum(b) / n
    ab = sum((x - ma) * (y - mb) for x, y in zip(a, b))
    aa = sum((x - ma) ** 2 for x in a)
    bb = sum((y - mb) ** 2 for y in b)
    return ab / math.sqrt(aa * bb) if aa > 0 and bb > 0 else float("nan")


def percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    if not s:
        return float("nan")
    k = (len(s) - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def cpu_per_second(tactus: str, wavs: list[Path], extra: list[str], block: int) -> tuple[float, float]:
    """CPU seconds per second of a 48 kHz stereo stream (the sounds resampled and concatenated by
    sox), and the stream's length in seconds."""
    with tempfile.TemporaryDirectory() as folder:
        raw = Path(folder) / "stream.f32"
        with open(raw, "wb") as sink:
            for wav in wavs:
                sink.write(subprocess.run(["sox", str(wav), "-t", "raw", "-e", "floating-point", "-b", "32", "-L",
                                           "-r", "48000", "-c", "2", "-"], check=True, capture_output=True).stdout)
        seconds = raw.stat().st_size / 4 / 2 / 48000
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        with open(raw, "rb") as source:
            subprocess.run([tactus, "live", "-", "--rate", "48000", "--channels", "2", "--block", str(block), *extra],
                           stdin=source, stdout=subprocess.DEVNULL, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return cpu / seconds, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tactus", required=True)
    parser.add_argument("--block", type=int, default=512)
    parser.add_argument("--preset")
    parser.add_argument("--set", action="append", default=[])
    parser.add_argument("--live-set", action="append", default=[],
                        help="k=v for the live side only (a parameter convert never reads, e.g. peaks.liveDecision)")
    parser.add_argument("--reference-cache", help="folder keeping the --reference events between runs (see above)")
    parser.add_argument("--reference-tactus", help="the tactus binary that runs --reference (default: --tactus): one whose convert "
                                                   "is known to be the same, so its cached references serve a rebuilt live side")
    parser.add_argument("--hop", type=float, default=0.01, help="the body's hop, seconds, when a sound's body has fewer than two values (else read from the body times)")
    parser.add_argument("--cpu", action="store_true")
    parser.add_argument("--live-only", action="store_true", help="latency and F@25 of the live transients only (no --reference runs)")
    parser.add_argument("--own-frame-ms", type=float,
                        help="with peaks.liveDecision peak: the look-ahead frames × hop, ms; also reports the latency at the onset's own frame's end")
    parser.add_argument("folders", nargs="+")
    args = parser.parse_args()
    extra = (["--preset", args.preset] if args.preset else []) + [x for s in args.set for x in ("--set", s)]
    live_extra = extra + [x for s in args.live_set for x in ("--set", s)]
    window_ms, hop_ms = frame_ms(args.set + args.live_set)

    wavs = sorted(p for folder in args.folders for p in Path(folder).glob("*.wav") if p.with_suffix(".json").exists())
    latencies: list[float] = []
    early = 0
    agreement = (0, 0, 0)
    live_truth = offline_truth = (0, 0, 0)
    pooled_live: list[float] = []
    pooled_offline: list[float] = []
    per_file_r: list[float] = []
    for wav in wavs:
        truth = json.loads(wav.with_suffix(".json").read_text())["onsets"]
        live = events(args.tactus, wav, ["--block", str(args.block), *live_extra])
        offline = [] if args.live_only else reference(args.reference_tactus or args.tactus, wav, extra, args.reference_cache)
        lt = [e["time"] for e in live if e["kind"] == "transient"]
        ot = [e["time"] for e in offline if e["kind"] == "transient"]
        latencies += [e["emittedAt"] - e["time"] for e in live if e["kind"] == "transient"]
        early += sum(between_frames(e["emittedAt"], wav, window_ms, hop_ms) for e in live if e["kind"] == "transient")
        agreement = add(agreement, f_measure(lt, ot, 0.010))
        live_truth = add(live_truth, f_measure(lt, truth, 0.025))
        offline_truth = add(offline_truth, f_measure(ot, truth, 0.025))
        live_body = [e for e in live if e["kind"] == "continuous"]
        offline_body = [e for e in offline if e["kind"] == "continuous"]
        hop = body_hop(live_body + offline_body, args.hop)
        end = max([e["time"] for e in live + offline] + [0])
        frames = int(end / hop) + 2
        lb = grid(live_body, hop, frames, holds=True)
        ob = grid(offline_body, hop, frames, holds=False)
        playing = [k for k in range(frames) if lb[k] > 0 or ob[k] > 0]
        a, b = [lb[k] for k in playing], [ob[k] for k in playing]
        pooled_live += a
        pooled_offline += b
        r = pearson(a, b)
        if not math.isnan(r):
            per_file_r.append(r)

    ms = [1000 * x for x in latencies]
    print(f"files {len(wavs)}  block {args.block}  preset {' '.join(live_extra) or 'default'}")
    print(f"latency ms (emittedAt - time, {len(ms)} transients): p50 {percentile(ms, 0.5):.1f}  "
          f"p90 {percentile(ms, 0.9):.1f}  p95 {percentile(ms, 0.95):.1f}  max {max(ms, default=float('nan')):.1f}  "
          f"within 20 ms {sum(x <= 20 for x in ms) / max(1, len(ms)):.2f}")
    print(f"released between frames: {early} ({early / max(1, len(ms)):.2f})")
    if args.own_frame_ms is not None:
        own = [x - args.own_frame_ms for x in ms]
        print(f"at its own frame's end (latency - {args.own_frame_ms:g} ms): p50 {percentile(own, 0.5):.1f}  "
              f"p95 {percentile(own, 0.95):.1f}  within 20 ms {sum(x <= 20 for x in own) / max(1, len(own)):.2f}")
    if args.live_only:
        print(f"F@25 vs annotation: live {score(live_truth):.3f}")
    else:
        print(f"transients live vs convert F@10ms: {score(agreement):.3f}  (tp {agreement[0]} fp {agreement[1]} fn {agreement[2]})")
        print(f"body intensity r vs convert: pooled {pearson(pooled_live, pooled_offline):.3f}  "
              f"median per file {percentile(per_file_r, 0.5):.3f}  ({len(per_file_r)} files)")
        print(f"F@25 vs annotation: live {score(live_truth):.3f}  convert {score(offline_truth):.3f}")
    if args.cpu:
        cpu, seconds = cpu_per_second(args.tactus, wavs, live_extra, args.block)
        print(f"CPU per 48 kHz stereo stream: {100 * cpu:.3f} % of one core ({1 / cpu:.0f}x real time) over {seconds:.0f} s")


if __name__ == "__main__":
    main()
