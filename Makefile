# Tactus — common tasks. `make corpus` and `make test` are the two README commands.
SWIFT ?= swift
OUT ?= out
CONFIG ?= release
# Release binaries carry the Swift runtime and Foundation inside them: `tactus` then runs on
# a machine without Swift, and each process starts in half the time (no dynamic linking of
# the Swift libraries: about 10 ms less per `tactus convert`).
# RUNTIME=static links it into a debug build too, from the objects the tests' build compiled
# (CI's install and .deb checks; only the two executables are linked again). Those objects were
# compiled against the shared runtime, whose libraries bring their own dependencies, so the
# static runtime's libraries they do not name are named here (Swift 6.3's FoundationEssentials:
# its C shims and collections, and Synchronization); a toolchain that needs more fails to link.
STATIC_RUNTIME = --static-swift-stdlib -Xlinker -l_FoundationCShims -Xlinker -l_FoundationCollections \
	-Xlinker -lswiftSynchronization
STATIC ?= $(if $(filter release,$(CONFIG)),--static-swift-stdlib,$(if $(filter static,$(RUNTIME)),$(STATIC_RUNTIME)))
# SwiftPM's build folder (--scratch-path); the tool is $(BIN)/tactus.
SCRATCH ?= .build
BIN = $(SCRATCH)/$(CONFIG)
# BUILT=1: the tools in $(BIN) are built already, so the checks that run them skip `build` (each
# `swift build` that finds nothing to do still loads the package and plans: about 5 s). CI passes
# it: `make test` built them.
TOOLS = $(if $(BUILT),,build)

.PHONY: deps build corpus test check-install check-deb check-example check-android check-tune check-tune-page check-formats eval realcorpus eval-real eval-unseen bench bench-live docs man install uninstall deb clean

# Installs FFTW and libsndfile (with apt-get) only when pkg-config cannot find them.
deps:
	@scripts/ensure-deps.sh

# The packages here (the root, Tune/, the example app) build into one folder, $(SCRATCH), and
# share its build description file per configuration. SwiftPM may take the one another package
# left for its own: after a plain `swift build` of the root, a Tune build compiled nothing of
# Tune, or failed with "No target named 'tactus-tune-…' in build description". So every build
# here first removes it (`$(call plan-anew,CONFIG)`) and plans anew, which compiles nothing more.
plan-anew = rm -f $(SCRATCH)/$(1)/description.json

# Both executables: `tactus`, and `tactus-tune` (the `tactus tune` server, which `tactus tune`
# runs from beside `tactus`; the only one that links Hummingbird and SwiftNIO), built from the
# Tune/ package into the same folder, whose Tactus modules it reuses.
TUNE = --package-path Tune --scratch-path $(SCRATCH)
build: deps
	$(call plan-anew,$(CONFIG))
	$(SWIFT) build -c $(CONFIG) $(STATIC) --scratch-path $(SCRATCH) --product tactus
	$(call plan-anew,$(CONFIG))
	$(SWIFT) build -c $(CONFIG) $(STATIC) $(TUNE) --product tactus-tune

# Converts the bundled Corpus with the default preset into $(OUT)/, then validates every AHAP.
corpus: build
	@mkdir -p $(OUT)
	$(BIN)/tactus batch Corpus -o $(OUT) --preset default
	$(BIN)/tactus validate --quiet $$(find $(OUT) -name '*.ahap' | sort)

# What .ci/run runs first. Its debug build (the executables, tactus-tool for the plugins and
# tactus-peak-memory for the tests included) is the one the CI checks then run. The Tune/ package
# is built first because `tactus tune`'s tests run its `tactus-tune`; each package's test bundle
# then runs one class per process on every core (scripts/run-tests.sh; `swift test` would run
# them on one, and `swift test --skip-build` runs only the package built last in a shared folder).
test: deps
	$(call plan-anew,debug)
	$(SWIFT) build --build-tests $(TUNE)
	$(call plan-anew,debug)
	$(SWIFT) build --build-tests
	scripts/run-tests.sh .build/debug/TactusPackageTests.xctest
	scripts/run-tests.sh .build/debug/TactusTunePackageTests.xctest

# The example app package: the build plugin bundles valid AHAPs, reconverts only what changed,
# and fails on a broken sound (scripts/check-example.sh).
check-example: deps
	scripts/check-example.sh

# The Android helper (Integrations/Android): compiled with javac against stand-ins of the SDK
# classes it calls, its JVM tests run on the .android.json files the tool writes for Corpus/
# (scripts/check-android.sh; installs a JDK with apt-get if javac is missing). Runs the
# $(CONFIG) build of the tool: CI passes CONFIG=debug, the build `make test` made.
check-android: deps $(TOOLS)
	scripts/check-android.sh $(BIN)/tactus

# `tactus tune` in a real headless Chromium, the designer's story: a handful of Feel knobs first,
# the rest under Advanced; skipped sounds listed; typed and paired values refused beside their knob
# while every other knob works; A and B each with their own settings; every target auditioned;
# save `punchy` into ./Presets and `tactus batch --preset punchy` writing the page's exported bytes,
# a second batch with fewer formats keeping the first one's files; bad token, Host and Origin
# refused; no console errors; Ctrl-C exits 0 (scripts/check-tune; installs Debian's chromium and
# chromium-driver and Selenium from PyPI when missing). The page's own scripts are checked first.
# Runs the $(CONFIG) build (CI: CONFIG=debug, the build `make test` made).
check-tune: deps $(TOOLS) check-tune-page
	scripts/check-tune/run.sh --tactus $(BIN)/tactus

# The page's JavaScript as code (node, a check-time tool only; installs Debian's nodejs when
# missing): each script parses, and the pure functions of tune-values.js pass
# scripts/check-tune/page_tests.js. TunePageAssetsTests runs the same under `swift test` when node
# is installed (TunePagePlugin compiles the files in).
check-tune-page:
	scripts/check-tune/page.sh

# What `make install` and `make deb` give a user, checked (scripts/check-install.sh).
check-install: deps
	scripts/check-install.sh

# The package installed into a fresh Debian without Swift (debootstrap; root and network).
check-deb: check-install
	scripts/check-deb-chroot.sh

# Scores the default preset on the Corpus (transient timing per condition, envelope
# fidelity, the same with unsimplified fixed-rate curves for comparison), then the
# transients of Tactus beside librosa and aubio on the same files (installs them if missing).
eval: build
	$(BIN)/tactus evaluate Corpus
	@echo "--- the same with unsimplified curves (a naive fixed-rate mapping) ---"
	$(BIN)/tactus evaluate Corpus --set mapping.intensity.tolerance=0.001 --set mapping.sharpness.tolerance=0.001 | tail -6
	@python3 -c "import librosa" 2>/dev/null || pip install -q -r scripts/requirements-eval.txt
	@command -v aubioonset >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq aubio-tools >/dev/null)
	python3 scripts/eval_onsets.py --tactus $(BIN)/tactus

# The real-sound corpus (docs/REALCORPUS.md): sound effects from Debian packages, fetched with
# apt-get download into realcorpus-cache/ (nothing installed), one-shots by category and
# mixtures with ground truth, in realcorpus/dev and realcorpus/heldout.
realcorpus:
	@python3 -c "import numpy, scipy, soundfile" 2>/dev/null || pip install -q -r scripts/requirements-eval.txt
	python3 scripts/realcorpus/make_realcorpus.py

# Tactus on both halves of the real-sound corpus beside librosa and aubio, per condition and
# per category (transient sharpness and intensity); writes realcorpus/report.md. Then how the
# one-shots feel against how they sound (scripts/realcorpus/feel.py: loudness across files,
# body sharpness per category, lead before the first audible sample, the body around transients).
eval-real: build realcorpus
	@command -v aubioonset >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq aubio-tools >/dev/null)
	@python3 -c "import pyloudnorm" 2>/dev/null || pip install -q -r scripts/requirements-eval.txt
	python3 scripts/realcorpus/evaluate.py --tactus $(BIN)/tactus
	python3 scripts/realcorpus/feel.py --tactus $(BIN)/tactus

# Every shipped preset on a third set of real one-shots, from packages neither half of the
# real-sound corpus nor the independent check uses (scripts/realcorpus/unseen-packages.txt),
# fetched like the corpus's into realcorpus-cache/ (about 190 MB of packages): body sharpness
# at the rails and how far it moves, the envelope per category, points per second, the order
# from explosions to clicks.
eval-unseen: build
	@python3 -c "import numpy, scipy, soundfile" 2>/dev/null || pip install -q -r scripts/requirements-eval.txt
	python3 scripts/realcorpus/unseen.py --tactus $(BIN)/tactus

# The rendered formats (pcm with each profile, dualsense, rumble, split AHAP) measured against the
# AHAP and .haptic of the same analysis on the Corpus and both halves of the real-sound corpus:
# pulse timing, envelope, actuator band, split pair, bytes across runs and threads
# (scripts/check_formats.py; tables in BENCHMARKS.md, "Rendered formats"). About 1.5 min on the
# Corpus alone on two busy cores, so not in CI; FOLDERS=Corpus for that part only; BUILT=1 runs
# the tactus already in $(BIN).
FOLDERS ?= Corpus realcorpus/dev realcorpus/heldout
check-formats: deps $(TOOLS)
	@python3 -c "import numpy, scipy, soundfile" 2>/dev/null || pip install -q -r scripts/requirements-eval.txt
	python3 scripts/check_formats.py --tactus $(BIN)/tactus --work check-formats-out $(FOLDERS)

# Benchmarks (not part of `make test`): release build, generated corpus in bench-out/, Tactus
# beside librosa and aubio, the machine's limit and a per-stage profile (see BENCHMARKS.md).
bench: deps
	scripts/bench/ensure-tools.sh
	$(MAKE) build CONFIG=release SCRATCH=.build
	scripts/bench/run.py --tactus .build/release/tactus --instructions
	scripts/bench/big_pattern.py --tactus .build/release/tactus --work bench-out/big
	scripts/check-tune/run.sh --tactus .build/release/tactus --bench
	$(MAKE) bench-live

# TactusLive's module graph (no system library, no package: scripts/check_live_graph.py), then
# `tactus live` (TactusLive) on the held-out half of the real-sound corpus against `tactus
# convert` and the annotations: latency, agreement, body, F@25, CPU per 48 kHz stereo stream
# (scripts/bench/live.py; BENCHMARKS.md, "Live"); then, optimized, the allocations, locks and
# I/O per pushed block (LiveAllocationTests, skipped in debug builds).
bench-live: deps
	scripts/check_live_graph.py
	$(SWIFT) build -c release --static-swift-stdlib --product tactus
	scripts/bench/live.py --tactus .build/release/tactus --cpu realcorpus/heldout
	$(SWIFT) test -c release -Xswiftc -enable-testing --scratch-path .build/release-tests --filter LiveAllocationTests

# The library's documentation (DocC: Tactus, TactusCore, TactusAHAP, TactusLive, with the articles) as a
# static site in docs-site/; warnings fail the build. TACTUS_DOCS=1 adds swift-docc-plugin to the
# package (Package.swift), which apps that depend on Tactus then never resolve. First, every public declaration in Sources/
# must have a doc comment with its Parameters/Returns/Throws (scripts/check_doc_comments.py,
# its rules in its docstring; counts per module, and with --list each declaration that fails).
docs: deps
	python3 scripts/check_doc_comments.py --strict --list
	TACTUS_DOCS=1 $(SWIFT) package --allow-writing-to-directory docs-site generate-documentation \
		--target Tactus --target TactusCore --target TactusAHAP --target TactusLive --enable-experimental-combined-documentation \
		--output-path docs-site --transform-for-static-hosting --warnings-as-errors

# Installation: `make install PREFIX=…` (default /usr/local; DESTDIR stages it elsewhere).
PREFIX ?= /usr/local
BINDIR = $(DESTDIR)$(PREFIX)/bin
SHAREDIR = $(DESTDIR)$(PREFIX)/share
# The manual's date: the last commit's, so the same tree always gives the same page.
MANDATE = $(shell git log -1 --format=%cs 2>/dev/null || date +%F)
VERSION = $(shell sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/Tactus/Version.swift)

# The man pages, generated from the command definitions (swift-argument-parser's plugin, which
# builds every product in debug first, so it never replaces the static release binary), again
# only when a source changed: `make install` links a static debug build (RUNTIME=static) after
# them, and `make deb` installs a second time.
MAN_PAGES = .build/man/tactus.1 .build/man/tune.1
man: $(MAN_PAGES)
$(MAN_PAGES) &: $(shell find Sources Tune/Sources -name '*.swift') | deps
	mkdir -p .build/man
	for package in . Tune; do \
		$(call plan-anew,debug); \
		$(SWIFT) package --package-path $$package --scratch-path $(SCRATCH) --allow-writing-to-directory .build/man \
			generate-manual --configuration debug --output-directory .build/man --date $(MANDATE) \
			--authors "The Tactus developers" || exit 1; \
	done

# The tool (`tactus` and `tactus-tune` side by side), its presets (found through
# share/tactus/Presets), the man pages and bash/zsh/fish completions, each where it belongs
# under $(PREFIX). The man pages come first: their plugin's debug build would replace a static
# debug build made before it.
install: man $(TOOLS)
	install -d $(BINDIR) $(SHAREDIR)/tactus/Presets $(SHAREDIR)/man/man1 \
		$(SHAREDIR)/bash-completion/completions $(SHAREDIR)/zsh/site-functions $(SHAREDIR)/fish/vendor_completions.d
	install -m 755 $(BIN)/tactus $(BINDIR)/tactus
	install -m 755 $(BIN)/tactus-tune $(BINDIR)/tactus-tune
	install -m 644 Presets/*.json $(SHAREDIR)/tactus/Presets/
	install -m 644 .build/man/tactus.1 $(SHAREDIR)/man/man1/tactus.1
	install -m 644 .build/man/tune.1 $(SHAREDIR)/man/man1/tactus-tune.1
	$(BIN)/tactus --generate-completion-script bash > $(SHAREDIR)/bash-completion/completions/tactus
	$(BIN)/tactus --generate-completion-script zsh > $(SHAREDIR)/zsh/site-functions/_tactus
	$(BIN)/tactus --generate-completion-script fish > $(SHAREDIR)/fish/vendor_completions.d/tactus.fish

uninstall:
	rm -f $(BINDIR)/tactus $(BINDIR)/tactus-tune $(SHAREDIR)/man/man1/tactus.1 $(SHAREDIR)/man/man1/tactus-tune.1 \
		$(SHAREDIR)/bash-completion/completions/tactus \
		$(SHAREDIR)/zsh/site-functions/_tactus $(SHAREDIR)/fish/vendor_completions.d/tactus.fish
	rm -rf $(SHAREDIR)/tactus

# A Debian package of the same installation under /usr (needs dpkg-deb; the binary carries the
# Swift runtime, so the package depends only on libsndfile and single-precision FFTW). Its binaries
# carry no debug information, as Debian's own packages ship them (symbols stay, for backtraces).
deb:
	rm -rf .build/deb
	$(MAKE) install PREFIX=/usr DESTDIR=$(CURDIR)/.build/deb
	strip --strip-debug .build/deb/usr/bin/tactus .build/deb/usr/bin/tactus-tune
	install -d .build/deb/DEBIAN
	scripts/deb-control.sh $(VERSION) > .build/deb/DEBIAN/control
	dpkg-deb --root-owner-group --build .build/deb .build/tactus_$(VERSION)_$$(dpkg --print-architecture).deb

clean:
	rm -rf .build $(OUT) docs-site
