#!/usr/bin/env python3
"""Build the real-sound corpus: real game and desktop sound effects from Debian packages,
labelled by category, and mixtures of them with ground truth by construction.

    make realcorpus            (= python3 scripts/realcorpus/make_realcorpus.py)

Sources: every package in packages.txt is fetched with `apt-get download` into
realcorpus-cache/debs and unpacked with `dpkg -x` (nothing is installed); sounds are read
from the tree and from the zip archives some games keep them in (.pk3, .wz). Each source's
package, version, path, licence and category is written to realcorpus/sources.csv.

One-shots: sounds of 0.05-3 s whose peak is above -40 dBFS, not music, trimmed of leading
silence. Category by path (rules below, first match wins; `other` when none matches); at most
PER_PACKAGE from one package, at most PER_PACKAGE_CATEGORY of one category from one package.
Each one-shot is a file of its own (`oneshot-<category>-<index>`); the mixtures draw from the
named categories except speech and texture, whose onsets are grainy.

Onset rule (the same as the synthetic Corpus): the first sample where the stem's absolute
amplitude exceeds -50 dB of that stem's own peak, measured on the clean stem (after any
fade-in, gain or resampling, before mixing with noise, before reverb, clipping or lossy
encoding). Internal attacks of a one-shot (a latch then a slam, a coin's second chime) are
onsets too: in the stem's 10 ms RMS envelope, a block within 20 dB of the stem's peak that
rises at least 15 dB above the quietest of the 50 ms before it, at least 100 ms after the
previous onset (a new sound a designer would want a transient on, not the grain of one);
its onset is where the power over the trailing 0.5 ms last climbs past the quiet level + 6 dB
between the quietest of those blocks and the rise (searching from the quietest block, not from
the start of the 50 ms, where the previous sound may still be decaying above that level; and
the last climb, not a blip of the trough's noise that falls back). Each annotation's
`onsetKinds` says of every onset whether it is a stem's `start` or an `internal` attack.

Over a noise or ambience bed, an onset is where its hit emerges from the bed: the first
sample from the stem's onset (above) where the hits' power over the next 2 ms reaches the
bed's mean power over the 100 ms around that onset (0 dB local SNR), within 100 ms; the
stem's own onset when the hit stays under the bed. A hit's quiet lead-in under a bed is
masked, and a transient there would come before anything a listener hears. The stem onsets
are kept in each annotation as `stemOnsets`.

Split: each one-shot belongs to `dev` or `heldout` by a hash of package and path, so no
sound is in both. Mixtures of each split use only that split's one-shots.

Deterministic: numpy generators seeded from CRC32 of fixed names; audio written with
libsndfile (python-soundfile); the same package versions and libraries give the same bytes.
"""
from __future__ import annotations

import argparse
import csv
import io
import json
import re
import subprocess
import sys
import zipfile
import zlib
from pathlib import Path

import numpy as np
import soundfile as sf
from scipy.signal import resample_poly, lfilter

ROOT = Path(__file__).resolve().parent.parent.parent
HERE = Path(__file__).resolve().parent
PER_PACKAGE = 60
PER_PACKAGE_CATEGORY = 15
SOUND = re.compile(r"\.(wav|ogg|flac)$", re.I)
# First match wins; paths are lower-cased.
CATEGORIES = [
    ("speech", r"voices?/|speech|/talk|/sarge/|taunt|cmndrvoc|missmesg|vtoltalk|tutorial/|countdown|/feedback/"),
    ("impact", r"richet|ricochet|squish|splat"),
    ("explosion", r"explo|boom|blast|bomb|nuke|detonat|grenade|cannon|kaboom|rocket_?x"),
    ("glass", r"glass|shatter|crystal|breakwin"),
    ("footstep", r"footst|/step|step[0-9_]|walk"),
    ("door", r"door|gate|hatch"),
    ("coin", r"coin|bonus|collect|gem|money|reward|cash"),
    ("powerup", r"pickup|powerup|power_up|/items/"),
    ("bell", r"bell|ding|chime|gong"),
    ("click", r"click|button|menu|select|tick|beep|toggle|switch|/ui/"),
    ("whoosh", r"whoosh|swoosh|woosh|swing|swish|whip|fly|throw"),
    ("texture", r"rain|fire|engine|water|ambient|loop|motor|burn|wind|hum|drill"),
    ("impact", r"hit|impact|punch|thud|crash|bump|bounce|smash|slam|collide|knock|land|fall|thump|shot|gun|shoot|fire"),
]
RATES = [22050, 44100, 48000, 96000]
FORMATS = [("wav", "PCM_16"), ("wav", "PCM_24"), ("wav", "FLOAT"), ("flac", "PCM_16"), ("ogg", "VORBIS"), ("mp3", "MPEG_LAYER_III")]


def rng(name: str) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(name.encode()))


# ---------------------------------------------------------------- sources

def package_list(name: str) -> list[str]:
    """The package names in the file `name` beside this script: one a line, `#` comments."""
    return [p.strip() for p in (HERE / name).read_text().splitlines() if p.strip() and not p.startswith("#")]


def fetch(packages: list[str], cache: Path) -> dict[str, tuple[str, Path]]:
    """apt-get download + dpkg -x each package (once); returns package -> (version, root)."""
    debs, roots = cache / "debs", cache / "root"
    debs.mkdir(parents=True, exist_ok=True)
    missing = [p for p in packages if not list(debs.glob(f"{p}_*.deb"))]
    if missing:
        subprocess.run(["apt-get", "download", "-q", *missing], cwd=debs, check=True)
    found = {}
    for package in packages:
        deb = sorted(debs.glob(f"{package}_*.deb"))[-1]
        version = deb.name.split("_")[1].replace("%3a", ":")
        root = roots / package
        if not root.exists():
            root.mkdir(parents=True)
            subprocess.run(["dpkg", "-x", str(deb), str(root)], check=True)
        found[package] = (version, root)
    return found


def licence(root: Path, package: str) -> str:
    copyright = root / "usr/share/doc" / package / "copyright"
    if not copyright.exists():
        return "see package"
    names = re.findall(r"^License:\s*(\S[^\n]*)", copyright.read_text(errors="replace"), re.M)
    return " | ".join(sorted(set(n.strip() for n in names))) or "see package"


def sounds(root: Path):
    """(path, bytes) of every sound file in the tree and in its .pk3/.wz archives."""
    for path in sorted(root.rglob("*")):
        if path.is_file() and SOUND.search(path.name):
            yield str(path.relative_to(root)), path.read_bytes()
        elif path.is_file() and path.suffix.lower() in (".pk3", ".wz"):
            with zipfile.ZipFile(path) as archive:
                for member in sorted(archive.namelist()):
                    if SOUND.search(member):
                        yield f"{path.relative_to(root)}!{member}", archive.read(member)


def category(path: str) -> str:
    lowered = path.lower()
    for name, pattern in CATEGORIES:
        if re.search(pattern, lowered):
            return name
    return "other"


def decode(data: bytes) -> tuple[np.ndarray, int] | None:
    try:
        samples, rate = sf.read(io.BytesIO(data), dtype="float64", always_2d=True)
    except Exception:
        return None
    return samples.mean(axis=1), rate


def one_shot(mono: np.ndarray, rate: int) -> np.ndarray | None:
    """The sound trimmed of leading silence (keeping 2 ms before its onset), or None."""
    if not np.all(np.isfinite(mono)) or len(mono) == 0:
        return None
    peak = np.max(np.abs(mono))
    if peak < 10 ** (-40 / 20):
        return None
    start = max(0, onset_sample(mono) - int(0.002 * rate))
    trimmed = mono[start:]
    if not 0.05 <= len(trimmed) / rate <= 3.0:
        return None
    return trimmed


# ---------------------------------------------------------------- ground truth

def onset_sample(stem: np.ndarray) -> int:
    """First sample where |stem| exceeds -50 dB of the stem's peak."""
    threshold = np.max(np.abs(stem)) * 10 ** (-50 / 20)
    return int(np.argmax(np.abs(stem) > threshold))


def attacks(stem: np.ndarray, rate: int, within_db: float = 20, rise_db: float = 15, gap_s: float = 0.1,
            look_blocks: int = 5) -> list[int]:
    """The stem's onset and its internal attacks (module docstring), as sample indices. The
    keyword arguments are the rule's constants (truth_agreement.py varies them): a block within
    `within_db` of the peak, `rise_db` above the quietest of the `look_blocks` 10 ms blocks
    before it, `gap_s` after the previous onset."""
    first = onset_sample(stem)
    block = max(1, int(0.01 * rate))
    count = len(stem) // block
    if count < look_blocks + 2:
        return [first]
    rms = np.sqrt(np.mean(stem[: count * block].reshape(count, block) ** 2, axis=1) + 1e-20)
    level = 20 * np.log10(rms)
    peak = level.max()
    found = [first]
    # Power over the trailing 0.5 ms at every sample, to find where a rise leaves its trough.
    short = max(1, int(0.0005 * rate))
    power = np.convolve(stem.astype(np.float64) ** 2, np.ones(short) / short)[: len(stem)]
    for k in range(look_blocks, count):
        quiet = level[k - look_blocks:k].min()
        if level[k] < peak - within_db or level[k] - quiet < rise_db or k * block - found[-1] < gap_s * rate:
            continue
        # The rise that reaches block k: from the quietest block on (before it, the previous
        # sound may still be decaying), the last time the power climbs past quiet + 6 dB (a
        # blip of the trough's noise that falls back is not the attack).
        trough = (k - look_blocks + int(np.argmin(level[k - look_blocks:k]))) * block
        above = power[trough:(k + 1) * block] > 10 ** ((quiet + 6) / 10)
        crossings = np.flatnonzero(above[1:] & ~above[:-1]) + 1
        found.append(trough + (int(crossings[-1]) if len(crossings) else 0))
    return found


# ---------------------------------------------------------------- mixtures

def pink_noise(count: int, generator: np.random.Generator) -> np.ndarray:
    white = generator.standard_normal(count)
    # Paul Kellet's economy pink filter (-3 dB/octave within 0.05 dB above 10 Hz at 44.1 kHz).
    b = [0.049922035, -0.095993537, 0.050612699, -0.004408786]
    a = [1, -2.494956002, 2.017265875, -0.522189400]
    pink = lfilter(b, a, white)
    return pink / np.sqrt(np.mean(pink ** 2))


def resample(x: np.ndarray, source: int, target: int) -> np.ndarray:
    if source == target:
        return x
    g = np.gcd(source, target)
    return resample_poly(x, target // g, source // g)


def kinds(count: int) -> list[str]:
    """What each of a stem's `count` onsets (from `attacks`) is: its start, then its internal attacks."""
    return ["start"] + ["internal"] * (count - 1)


def place(stems, rate: int, gap: tuple[float, float], generator, lead: float = 0.3):
    """Stems one after another with random gaps; returns the mix, the onsets (s) in time order
    and what each onset is (`kinds`)."""
    position = int(lead * rate)
    events = []
    for stem in stems:
        events.append((position, stem))
        position += len(stem) + int(generator.uniform(*gap) * rate)
    mix = np.zeros(position + int(0.3 * rate))
    onsets = []
    for start, stem in events:
        mix[start:start + len(stem)] += stem
        found = attacks(stem, rate)
        onsets += zip([(start + a) / rate for a in found], kinds(len(found)))
    onsets.sort()
    return mix, [t for t, _ in onsets], [kind for _, kind in onsets]


def faded_in(bed: np.ndarray, rate: int) -> np.ndarray:
    """`bed` with its first 250 ms faded in linearly (in place), so a bed never starts with a step."""
    fade = int(0.25 * rate)
    bed[:fade] *= np.linspace(0, 1, fade)
    return bed


def ambience_bed(samples: np.ndarray, source_rate: int, rate: int, count: int) -> np.ndarray:
    """An ambience looped to `count` samples at `rate`, faded in: the bed under a mixture
    (bed_events.py rebuilds it the same way), before it is scaled to the condition's SNR."""
    return faded_in(np.resize(resample(samples, source_rate, rate), count), rate)


def snr_scale(signal: np.ndarray, noise: np.ndarray, onsets: list[float], rate: int, snr_db: float) -> float:
    """Gain for `noise` so the mean power of the mix's first 100 ms after each onset is
    `snr_db` above the noise's mean power."""
    windows = [signal[int(t * rate):int(t * rate) + int(0.1 * rate)] for t in onsets]
    power = np.mean(np.concatenate(windows) ** 2)
    return float(np.sqrt(power / (np.mean(noise ** 2) * 10 ** (snr_db / 10))))


def local_snr(signal: np.ndarray, bed: np.ndarray, onset: float, rate: int) -> float:
    """One onset's own SNR (dB): the power of the hits over the 100 ms after it against the
    bed's power over the same 100 ms (the condition's `snrDb` is a mean over all onsets, so
    the softer hits of a mixture stand lower than it)."""
    span = slice(int(onset * rate), int(onset * rate) + int(0.1 * rate))
    return float(10 * np.log10((np.mean(signal[span] ** 2) + 1e-20) / (np.mean(bed[span] ** 2) + 1e-20)))


def emergence(signal: np.ndarray, bed: np.ndarray, onset: float, rate: int) -> float:
    """Where a hit laid over a bed becomes audible: the first sample from `onset` on where the
    hits' power over the 2 ms that follow reaches the bed's mean power over the 100 ms around
    `onset` (0 dB local SNR), searched over 100 ms; `onset` itself when the hit stays under
    the bed (a buried hit, which its own SNR records). Before that point a hit's quiet lead-in
    is masked: a transient placed there would come before anything a listener hears."""
    start = int(round(onset * rate))
    window = max(1, int(0.002 * rate))
    around = bed[max(0, start - int(0.05 * rate)):start + int(0.05 * rate)]
    bed_power = float(np.mean(around.astype(np.float64) ** 2)) if len(around) else 0.0
    span = signal[start:start + int(0.1 * rate)].astype(np.float64) ** 2
    if bed_power <= 0 or len(span) < window:
        return onset
    trailing = np.convolve(span, np.ones(window) / window)[window - 1:len(span)]
    loud = np.flatnonzero(trailing >= bed_power)
    return onset if len(loud) == 0 else (start + int(loud[0])) / rate


def write(path: Path, mix: np.ndarray, rate: int, file_format: tuple[str, str]) -> None:
    container, subtype = file_format
    peak = np.max(np.abs(mix))
    if peak > 0.99 and subtype != "FLOAT":
        mix = mix * (0.99 / peak)
    sf.write(str(path), mix.astype(np.float32), rate, format=container.upper() if container != "wav" else "WAV",
             subtype=subtype)


def build(split: str, shots: list[dict], ambiences: list[dict], out: Path) -> list[dict]:
    folder = out / split
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.iterdir():  # files of an earlier run whose names this run may not reuse
        if stale.suffix in (".json", ".wav", ".flac", ".ogg", ".mp3"):
            stale.unlink()
    usable = [s for s in shots if s["category"] not in ("texture", "speech", "other")]
    files = []

    def emit(name, condition, mix, rate, onsets, extra, file_format):
        files.append(emit_file(folder, split, name, condition, mix, rate, onsets, extra, file_format))

    # Twelve mixtures per condition (twenty clean): with six, two draws of the same
    # conditions from nearly the same sounds differed by up to 0.18 in a condition's F@25.
    conditions = [("clean", 20), ("noise20", 12), ("noise10", 12), ("noise6", 12), ("ambience10", 12),
                  ("ambience6", 12), ("soft", 12), ("multi", 12), ("rolls", 12), ("reverb", 12), ("clipped", 12)]
    for condition, count in conditions:
        for i in range(count):
            name = f"{condition}-{i:02d}"
            g = rng(f"{split}/{name}")
            rate, file_format = RATES[i % len(RATES)], FORMATS[i % len(FORMATS)]
            if file_format[0] == "mp3":
                rate = min(rate, 48000)  # MPEG audio goes no higher
            pool = usable
            if condition == "multi":
                pool = [s for s in usable if s["attacks"] >= 2] or usable
            if condition == "rolls":
                pool = [s for s in usable if s["seconds"] <= 0.25] or usable
            picks = [pool[j] for j in g.choice(len(pool), size=min(len(pool), 4), replace=False)]
            stems = [resample(p["samples"], p["rate"], rate) * 10 ** (g.uniform(-12, 0) / 20) for p in picks]
            if condition == "soft":
                for k, stem in enumerate(stems):
                    fade = min(len(stem), int(g.uniform(0.015, 0.06) * rate))  # a stem may be shorter
                    stems[k] = stem.copy()
                    stems[k][:fade] *= np.linspace(0, 1, fade) ** 2
            if condition == "rolls":
                stems = [stems[0] * 10 ** (g.uniform(-3, 0) / 20) for _ in range(int(g.integers(4, 7)))]
                mix, onsets, onset_kinds = place(stems, rate, (0.07 - len(stems[0]) / rate, 0.15 - len(stems[0]) / rate), g)
            else:
                mix, onsets, onset_kinds = place(stems, rate, (0.25, 0.6), g)
            extra = {"onsetKinds": onset_kinds, "sources": [f'{p["package"]}:{p["path"]}' for p in picks],
                     "categories": [p["category"] for p in picks]}
            if condition.startswith("noise") or condition.startswith("ambience"):
                snr = float(condition.lstrip("noiseambience"))
                if condition.startswith("noise"):
                    bed = faded_in(pink_noise(len(mix), g), rate)
                else:
                    source = ambiences[i % len(ambiences)]
                    bed = ambience_bed(source["samples"], source["rate"], rate, len(mix))
                    extra["ambience"] = f'{source["package"]}:{source["path"]}'
                bed = bed * snr_scale(mix, bed, onsets, rate, snr)
                extra["snrDb"] = snr
                extra["onsetSnrDb"] = [round(local_snr(mix, bed, t, rate), 2) for t in onsets]
                extra["stemOnsets"] = [round(t, 6) for t in onsets]
                onsets = [emergence(mix, bed, t, rate) for t in onsets]
                mix = mix + bed
            if condition == "reverb":
                # A decaying noise tail (time constant 0.25 s, 0.8 s long) whose energy is 11.4 dB
                # above the direct sound's at every rate: per sample, its gain falls with the rate.
                decay = int(0.8 * rate)
                gain = 0.05 * np.sqrt(44100 / rate)
                tail = g.standard_normal(decay) * np.exp(-np.arange(decay) / (0.25 * rate)) * gain
                tail[0] = 1.0
                mix = np.convolve(mix, tail)[:len(mix) + decay]
            if condition == "clipped":
                drive = g.uniform(6, 12)
                mix = np.clip(mix / np.max(np.abs(mix)) * 10 ** (drive / 20), -1, 1)
                extra["driveDb"] = round(drive, 2)
            emit(name, condition, mix, rate, onsets, extra, file_format)
    # Every one-shot is scored alone, the ones no path rule names too (category `other`):
    # they count for transients and curves, and the category tables list them apart.
    for i, shot in enumerate(shots):
        files.append(emit_one_shot(folder, split, i, shot))
    return files


def emit_file(folder: Path, split: str, name: str, condition: str, mix: np.ndarray, rate: int, onsets: list[float],
              extra: dict, file_format: tuple[str, str]) -> dict:
    """Writes `name`'s audio and its annotation (`<name>.json`) into `folder`; returns the annotation."""
    extension = {"mp3": "mp3", "ogg": "ogg", "flac": "flac"}.get(file_format[0], "wav")
    audio = folder / f"{name}.{extension}"
    write(audio, mix, rate, file_format)
    entry = {"file": audio.name, "condition": condition, "split": split, "sampleRate": rate,
             "format": "/".join(file_format), "durationSeconds": round(len(mix) / rate, 6),
             "onsets": [round(t, 6) for t in onsets], **extra}
    (folder / f"{name}.json").write_text(json.dumps(entry, indent=2) + "\n")
    return entry


def emit_one_shot(folder: Path, split: str, index: int, shot: dict) -> dict:
    """One-shot number `index` scored alone: 100 ms of silence, the sound, 100 ms of silence,
    as 16-bit WAV, its onsets its start and internal attacks; returns the annotation."""
    name = f"oneshot-{shot['category']}-{index:03d}"
    lead = int(0.1 * shot["rate"])
    mix = np.concatenate([np.zeros(lead), shot["samples"], np.zeros(int(0.1 * shot["rate"]))])
    onsets = [(lead + a) / shot["rate"] for a in attacks(shot["samples"], shot["rate"])]
    return emit_file(folder, split, name, "oneshot", mix, shot["rate"], onsets,
                     {"onsetKinds": kinds(len(onsets)), "category": shot["category"],
                      "sources": [f'{shot["package"]}:{shot["path"]}']}, ("wav", "PCM_16"))


def collect(fetched: dict[str, tuple[str, Path]]) -> tuple[list[dict], list[dict]]:
    """The one-shots (each with its split) and the ambience beds of the fetched packages, in
    package order: at most PER_PACKAGE one-shots a package, PER_PACKAGE_CATEGORY of a category."""
    shots, ambiences = [], []
    for package, (version, root) in fetched.items():
        terms = licence(root, package)
        taken, per_category = 0, {}
        for path, data in sounds(root):
            if "music" in path.lower() or taken >= PER_PACKAGE:
                continue
            decoded = decode(data)
            if decoded is None:
                continue
            mono, rate = decoded
            kind = category(path)
            if kind == "texture" and len(mono) / rate >= 2:
                ambiences.append({"package": package, "path": path, "samples": mono / (np.max(np.abs(mono)) + 1e-12), "rate": rate})
            shot = one_shot(mono, rate)
            if shot is None or per_category.get(kind, 0) >= PER_PACKAGE_CATEGORY:
                continue
            per_category[kind] = per_category.get(kind, 0) + 1
            taken += 1
            split = "dev" if zlib.crc32(f"{package}:{path}".encode()) % 2 == 0 else "heldout"
            shots.append({"package": package, "version": version, "path": path, "licence": terms, "category": kind,
                          "split": split, "samples": shot, "rate": rate, "seconds": len(shot) / rate,
                          "attacks": len(attacks(shot, rate))})
    return shots, ambiences


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "realcorpus")
    parser.add_argument("--cache", type=Path, default=ROOT / "realcorpus-cache")
    args = parser.parse_args()
    fetched = fetch(package_list("packages.txt"), args.cache)
    shots, ambiences = collect(fetched)
    args.out.mkdir(parents=True, exist_ok=True)
    with open(args.out / "sources.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["package", "version", "path", "licence", "category", "split", "seconds", "attacks"])
        for s in shots:
            writer.writerow([s["package"], s["version"], s["path"], s["licence"], s["category"], s["split"],
                             round(s["seconds"], 3), s["attacks"]])
    summary = {}
    for split in ("dev", "heldout"):
        mine = [s for s in shots if s["split"] == split]
        beds = [a for a in ambiences if zlib.crc32(f'{a["package"]}:{a["path"]}'.encode()) % 2 == (0 if split == "dev" else 1)] or ambiences
        files = build(split, mine, beds, args.out)
        summary[split] = {"oneShots": len(mine), "files": len(files), "onsets": sum(len(f["onsets"]) for f in files)}
    categories = {}
    for s in shots:
        categories[s["category"]] = categories.get(s["category"], 0) + 1
    summary["packages"] = len({s["package"] for s in shots})
    summary["categories"] = dict(sorted(categories.items()))
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
