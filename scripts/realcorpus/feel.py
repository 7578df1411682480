#!/usr/bin/env python3
"""How the one-shots of the real-sound corpus feel against how they sound (issue 31), per half:

  - loudness across files: Spearman rank correlation, over every one-shot, of the sound's
    loudness (the loudest BS.1770 momentary loudness, 400 ms windows every 100 ms, K-weighting
    from pyloudnorm, of the mono mixdown, in LUFS) with its played peak intensity (the largest
    of every transient's and the continuous body's intensity as Core Haptics plays the AHAP:
    event intensity times HapticIntensityControl);
  - body sharpness per category: each file's continuous sharpness as played (event sharpness plus
    HapticSharpnessControl), averaged over its body weighted by the played intensity, then the
    mean per category;
  - lead: a sound starts at the first sample within 50 dB of the file's peak after the file's
    start or after at least 20 ms below that level; the lead is how long before that sample the
    haptics already play (continuous intensity above 0 without a break up to the start, or a
    transient in the silence). Files with a lead over 1 ms and over 5 ms, and the largest lead;
  - the body around transients: RMS difference between the played continuous intensity and the
    track's (the `.haptic` written beside, whose amplitude is the track's intensity squared, with
    no control lifted), within 10 ms of a transient and elsewhere, sampled every 0.5 ms.

    python3 scripts/realcorpus/feel.py --tactus .build/release/tactus [--preset NAME] [--set k=v ...]

Tune on dev; heldout is reported only.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
from collections import defaultdict
from pathlib import Path

import numpy as np
import soundfile as sf
from scipy.stats import spearmanr

ROOT = Path(__file__).resolve().parent.parent.parent
ORDER = ["explosion", "impact", "footstep", "door", "texture", "speech", "whoosh", "bell", "powerup", "click", "coin", "glass", "other"]
AUDIBLE_DB = -50.0
SILENCE_S = 0.020


def k_weighted(mono: np.ndarray, rate: int) -> np.ndarray:
    import pyloudnorm
    meter = pyloudnorm.Meter(rate)
    x = mono.astype(np.float64)
    for stage in meter._filters.values():
        x = stage.apply_filter(x)
    return x


def loudest_momentary(mono: np.ndarray, rate: int) -> float:
    """Largest 400 ms mean square of the K-weighted signal (100 ms steps), in LUFS; a signal
    shorter than 400 ms is padded with silence."""
    x = k_weighted(mono, rate) ** 2
    window, hop = int(0.4 * rate), int(0.1 * rate)
    if len(x) < window:
        x = np.concatenate([x, np.zeros(window - len(x))])
    sums = np.concatenate([[0.0], np.cumsum(x)])
    starts = np.arange(0, len(x) - window + 1, hop)
    power = (sums[starts + window] - sums[starts]) / window
    top = power.max()
    return float(-0.691 + 10 * np.log10(top)) if top > 0 else -200.0


def sound_starts(mono: np.ndarray, rate: int) -> list[tuple[float, float]]:
    """(silence start, sound start) in seconds: the file's first audible sample, and each one
    after at least SILENCE_S below the audible level."""
    peak = np.max(np.abs(mono))
    if peak <= 0:
        return []
    loud = np.flatnonzero(np.abs(mono) >= peak * 10 ** (AUDIBLE_DB / 20))
    starts = [(0.0, loud[0] / rate)]
    gaps = np.flatnonzero(np.diff(loud) >= SILENCE_S * rate)
    starts += [((loud[g] + 1) / rate, loud[g + 1] / rate) for g in gaps]
    return starts


class Pattern:
    """What an AHAP plays, as PatternEvaluator reads it (one reading: controls multiply and add)."""

    def __init__(self, path: Path):
        pattern = json.loads(path.read_text())["Pattern"]
        self.transients, self.continuous, self.curves = [], [], defaultdict(list)
        for item in pattern:
            if "Event" in item:
                e = item["Event"]
                params = {p["ParameterID"]: p["ParameterValue"] for p in e.get("EventParameters", [])}
                if e["EventType"] == "HapticTransient":
                    self.transients.append((e["Time"], params.get("HapticIntensity", 1.0), params.get("HapticSharpness", 0.5)))
                elif e["EventType"] == "HapticContinuous":
                    self.continuous.append((e["Time"], e["Time"] + e["EventDuration"], params.get("HapticIntensity", 1.0),
                                            params.get("HapticSharpness", 0.5)))
            elif "ParameterCurve" in item:
                c = item["ParameterCurve"]
                points = [(c["Time"] + p["Time"], p["ParameterValue"]) for p in c["ParameterCurveControlPoints"]]
                self.curves[c["ParameterID"]].append((c["Time"], points))
        for curves in self.curves.values():
            curves.sort(key=lambda c: c[0])

    def control(self, parameter: str, t: np.ndarray, neutral: float) -> np.ndarray:
        out = np.full(len(t), neutral, dtype=np.float64)
        curves = self.curves.get(parameter, [])
        for i, (start, points) in enumerate(curves):
            end = curves[i + 1][0] if i + 1 < len(curves) else np.inf
            inside = (t >= start) & (t < end)
            times, values = zip(*points)
            out[inside] = np.interp(t[inside], times, values)
        return out

    def played(self, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Continuous intensity and sharpness played at `t` (sharpness NaN where nothing plays)."""
        base = np.zeros(len(t))
        sharp = np.full(len(t), np.nan)
        for start, end, intensity, sharpness in self.continuous:
            inside = (t >= start) & (t < end)
            base[inside] = np.maximum(base[inside], intensity)
            sharp[inside] = np.fmax(sharp[inside], sharpness)
        intensity = np.clip(base * self.control("HapticIntensityControl", t, 1.0), 0, 1)
        sharpness = np.clip(sharp + self.control("HapticSharpnessControl", t, 0.0), 0, 1)
        return intensity, sharpness

    def played_transients(self) -> list[tuple[float, float]]:
        if not self.transients:
            return []
        times = np.array([t for t, _, _ in self.transients])
        control = self.control("HapticIntensityControl", times, 1.0)
        return [(t, min(1.0, i * c)) for (t, i, _), c in zip(self.transients, control)]


def track_intensity(haptic: Path, t: np.ndarray) -> np.ndarray:
    """The track's continuous intensity from the .haptic written beside (amplitude = intensity²)."""
    document = json.loads(haptic.read_text())
    envelope = document["signals"]["continuous"]["envelopes"]["amplitude"]
    times = np.array([p["time"] for p in envelope])
    amplitude = np.array([p["amplitude"] for p in envelope])
    out = np.sqrt(np.clip(np.interp(t, times, amplitude, left=0, right=0), 0, 1)) if len(times) else np.zeros(len(t))
    return out


def measure(tactus: str, half: Path, preset: str, sets: list[str]) -> dict:
    files = []
    for annotation in sorted(half.glob("oneshot-*.json")):
        truth = json.loads(annotation.read_text())
        files.append((half / truth["file"], truth["category"]))
    with tempfile.TemporaryDirectory() as out:
        command = [tactus, "convert", *[str(f) for f, _ in files], "-o", out, "--preset", preset, "--quiet",
                   "--format", "ahap", "--format", "haptic", "--set", "output.pairAudio=false"]
        for s in sets:
            command += ["--set", s]
        subprocess.run(command, check=True, capture_output=True, text=True)
        rows = []
        for audio, category in files:
            samples, rate = sf.read(str(audio), always_2d=True)
            mono = samples.mean(axis=1)
            pattern = Pattern(Path(out) / f"{audio.stem}.ahap")
            step = 0.0005
            t = np.arange(0, len(mono) / rate + 0.05, step)
            intensity, sharpness = pattern.played(t)
            transients = pattern.played_transients()
            peak = max([intensity.max(initial=0)] + [i for _, i in transients])
            body = intensity > 0
            body_sharpness = float(np.average(sharpness[body], weights=intensity[body])) if body.any() else float("nan")
            lead = 0.0
            for silence, start in sound_starts(mono, rate):
                before = (t >= silence) & (t < start - 0.001)
                # The run of playing samples that reaches the start.
                k = int(np.searchsorted(t, start - 0.001)) - 1
                first = None
                while k >= 0 and t[k] >= silence and intensity[k] > 0:
                    first = t[k]
                    k -= 1
                if first is not None:
                    lead = max(lead, start - first)
                for time, value in transients:
                    if silence <= time < start - 0.001 and value > 0:
                        lead = max(lead, start - time)
                del before
            near = np.zeros(len(t), dtype=bool)
            for time, _ in transients:
                near |= np.abs(t - time) <= 0.010
            track = track_intensity(Path(out) / f"{audio.stem}.haptic", t)
            error = intensity - track
            rows.append({"file": audio.name, "category": category, "loudness": loudest_momentary(mono, rate),
                         "peak": peak, "bodySharpness": body_sharpness, "lead": lead,
                         "nearSq": float((error[near & body] ** 2).sum()), "nearN": int((near & body).sum()),
                         "elseSq": float((error[~near & body] ** 2).sum()), "elseN": int((~near & body).sum())})
    return {"rows": rows}


def report(name: str, rows: list[dict]) -> str:
    rho = spearmanr([r["loudness"] for r in rows], [r["peak"] for r in rows]).statistic
    leads = np.array([r["lead"] for r in rows])
    lines = [f"### {name} ({len(rows)} one-shots)", "",
             f"- loudness ↔ played peak intensity, Spearman: {rho:.3f} (loudness {min(r['loudness'] for r in rows):.1f}…"
             f"{max(r['loudness'] for r in rows):.1f} LUFS, played peak {min(leads * 0 + [r['peak'] for r in rows]):.2f}…"
             f"{max(r['peak'] for r in rows):.2f})",
             f"- lead before the first audible sample: files over 1 ms {int((leads > 0.001).sum())}, over 5 ms "
             f"{int((leads > 0.005).sum())}, largest {leads.max() * 1000:.1f} ms"]
    near = np.sqrt(sum(r["nearSq"] for r in rows) / max(1, sum(r["nearN"] for r in rows)))
    away = np.sqrt(sum(r["elseSq"] for r in rows) / max(1, sum(r["elseN"] for r in rows)))
    lines.append(f"- played body against the track, RMS: within 10 ms of transients {near:.3f}, elsewhere {away:.3f}")
    by = defaultdict(list)
    for r in rows:
        if np.isfinite(r["bodySharpness"]):
            by[r["category"]].append(r["bodySharpness"])
    lines += ["", "| category | files with a body | body sharpness (mean) |", "|---|---:|---:|"]
    for category in ORDER:
        if by[category]:
            lines.append(f"| {category} | {len(by[category])} | {np.mean(by[category]):.2f} |")
    heavy = by["explosion"] + by["impact"]
    crisp = by["click"] + by["coin"] + by["glass"]
    if heavy and crisp:
        lines.append(f"\nexplosion+impact bodies {np.mean(heavy):.2f}, click+coin+glass {np.mean(crisp):.2f}, "
                     f"gap {np.mean(crisp) - np.mean(heavy):+.2f}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tactus", default=str(ROOT / ".build/release/tactus"))
    parser.add_argument("--corpus", type=Path, default=ROOT / "realcorpus")
    parser.add_argument("--preset", default="default")
    parser.add_argument("--set", action="append", default=[], dest="sets")
    parser.add_argument("--half", action="append", help="dev and/or heldout (default both)")
    parser.add_argument("--json", type=Path, help="also write every file's numbers here")
    args = parser.parse_args()
    everything = {}
    for half in args.half or ["dev", "heldout"]:
        rows = measure(args.tactus, args.corpus / half, args.preset, args.sets)["rows"]
        everything[half] = rows
        print(report(half, rows) + "\n")
    if args.json:
        args.json.write_text(json.dumps(everything, indent=1) + "\n")


if __name__ == "__main__":
    main()
