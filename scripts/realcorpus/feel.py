#!/usr/bin/env python3
"""How the one-shots of the real-sound corpus feel against how they sound (issue 31), per half:

  - loudness across files: Spearman rank correlation, over every one-shot, of the sound's
    loudness (the loudest BS.1770 momentary loudness, 400 ms windows every 100 ms, K-weighting
    from pyloudnorm, of the mono mixdown, in LUFS: a yardstick independent of Tactus's
    libebur128) with its played peak intensity (`tactus evaluate --format json`'s
    `peakIntensity`: the largest of every transient's and the continuous body's intensity as
    `HapticPlayback` plays the AHAP, every 0.5 ms);
  - body sharpness per category: each file's continuous sharpness as played, averaged over its
    body weighted by the played intensity (`tactus evaluate`'s `meanBodySharpness`), then the
    mean per category;
  - lead: a sound starts at the first sample within 50 dB of the file's peak after the file's
    start or after at least 20 ms below that level; the lead is how long before that sample the
    haptics already play (continuous intensity above 0 without a break up to the start, or a
    transient in the silence), on what the AHAP plays (`tactus playback`, every 0.5 ms). Files
    with a lead over 1 ms and over 5 ms, and the largest lead;
  - the body around transients: RMS difference between the played continuous intensity and the
    track's (the `.haptic` written beside, with no control lifted), within 10 ms of a transient
    and elsewhere: `tactus compare TRACK.haptic FILE.ahap --format json` everywhere and with
    `--transient-mask-ms 10` (every 1 ms where either plays), the part within 10 ms from the two.

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


def tactus_json(tactus: str, *arguments: str) -> dict:
    """The JSON a `tactus` command prints, parsed. `evaluate` and `compare` exit 1 when a file
    failed or a limit was passed and print their numbers all the same; a command that prints
    nothing failed."""
    result = subprocess.run([tactus, *arguments], capture_output=True, text=True)
    if not result.stdout:
        raise RuntimeError(f"tactus {' '.join(arguments[:2])}: {result.stderr.strip()[-300:]}")
    return json.loads(result.stdout)


def evaluate(tactus: str, folder: Path, options: list[str]) -> dict[str, dict]:
    """`tactus evaluate FOLDER --format json`: each file's numbers, by audio file name."""
    return {Path(f["file"]).name: f for f in tactus_json(tactus, "evaluate", str(folder), "--format", "json", *options)["files"]}


def compare(tactus: str, reference: Path, candidate: Path, mask_ms: float) -> dict:
    """`tactus compare --format json` with `--transient-mask-ms`."""
    return tactus_json(tactus, "compare", str(reference), str(candidate), "--format", "json",
                       "--transient-mask-ms", str(mask_ms))


def played(tactus: str, ahap: Path, step: float) -> tuple[np.ndarray, list[tuple[float, float]]]:
    """What an AHAP plays (`tactus playback`): its continuous intensity every `step`
    seconds from 0, and its transients (time, intensity)."""
    document = tactus_json(tactus, "playback", str(ahap), "--step-ms", str(step * 1000))
    return (np.array(document["continuous"]["intensity"]),
            [(t["time"], t["intensity"]) for t in document["transients"]])


def measure(tactus: str, half: Path, preset: str, sets: list[str]) -> dict:
    """Per one-shot: `tactus evaluate` (played peak intensity and body sharpness, the AHAP as
    `HapticPlayback` plays it), `tactus compare` of the track (`.haptic`) with the AHAP (the
    body within 10 ms of transients and elsewhere), and the lead, on what the AHAP plays
    (`tactus playback`)."""
    files = []
    options = ["--preset", preset, *[x for s in sets for x in ("--set", s)]]
    with tempfile.TemporaryDirectory() as scratch:
        folder, out = Path(scratch) / "in", Path(scratch) / "out"
        folder.mkdir()
        for annotation in sorted(half.glob("oneshot-*.json")):
            truth = json.loads(annotation.read_text())
            files.append((half / truth["file"], truth["category"]))
            (folder / annotation.name).symlink_to(annotation.resolve())
            (folder / truth["file"]).symlink_to((half / truth["file"]).resolve())
        evaluated = evaluate(tactus, folder, options)
        subprocess.run([tactus, "convert", *[str(f) for f, _ in files], "-o", str(out), "--quiet",
                        "--format", "ahap", "--format", "haptic", "--set", "output.pairAudio=false", *options],
                       check=True, capture_output=True, text=True)
        rows = []
        for audio, category in files:
            samples, rate = sf.read(str(audio), always_2d=True)
            mono = samples.mean(axis=1)
            movement = evaluated[audio.name]["movement"]
            body_sharpness = movement["meanBodySharpness"]
            step = 0.0005
            t = np.arange(0, len(mono) / rate + 0.05, step)
            grid, transients = played(tactus, out / f"{audio.stem}.ahap", step)
            # Nothing plays after the haptics end: zeros up to the sound's end and a little more.
            intensity = np.zeros(len(t))
            intensity[:min(len(t), len(grid))] = grid[:len(t)]
            lead = 0.0
            for silence, start in sound_starts(mono, rate):
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
            track, ahap = out / f"{audio.stem}.haptic", out / f"{audio.stem}.ahap"
            everywhere, away = compare(tactus, track, ahap, 0)["envelope"], compare(tactus, track, ahap, 10)["envelope"]
            all_sq, away_sq = everywhere["rms"] ** 2 * everywhere["samples"], away["rms"] ** 2 * away["samples"]
            rows.append({"file": audio.name, "category": category, "loudness": loudest_momentary(mono, rate),
                         "peak": movement["peakIntensity"],
                         "bodySharpness": float("nan") if body_sharpness is None else body_sharpness, "lead": lead,
                         "nearSq": max(0.0, all_sq - away_sq), "nearN": everywhere["samples"] - away["samples"],
                         "elseSq": away_sq, "elseN": away["samples"]})
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
