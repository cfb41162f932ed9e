# stampcam — `make run` and `make test` are the whole set-up on a fresh Debian 12 machine.
PREFIX ?= /usr/local
OUT ?= out
export PATH := $(PATH):/opt/swift/usr/bin

# Debian packages the build and the built-in templates need (libmicrohttpd and libqrencode for
# `serve`), then the tests' tools: test-hostile's (cjpeg/djpeg, GNU time for peak RSS, python3 for
# the generator and the checks) and test-web's (Chromium and its WebDriver, zbarimg to read the QR
# code; Selenium goes into a venv under .build).
DEB_PACKAGES = libcairo2-dev libpango1.0-dev libjpeg-dev libexif-dev libv4l-dev libmicrohttpd-dev libqrencode-dev \
               pkg-config fonts-dejavu-core fonts-wqy-microhei tmux \
               libjpeg-turbo-progs time python3 python3-venv chromium chromium-driver zbar-tools
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build test run install clean bench bench-web test-vivid test-hostile test-asan test-web web-screenshot \
        bench-capture FORCE

deps:
	@missing=$$(for p in $(DEB_PACKAGES); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	    echo "make deps: installing" $$missing; \
	    $(SUDO) apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

build: deps
	swift build -c release

test: deps
	swift build --build-tests
	swift test --skip-build
	$(MAKE) test-asan
	$(MAKE) test-vivid
	$(MAKE) test-hostile
	$(MAKE) test-web

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

# The Imaging tests (the JPEG and EXIF C paths, the hostile-input tests) under AddressSanitizer and
# LeakSanitizer, in a scratch folder of their own; the runtime comes with the Swift toolchain.
# XCTest's runner leaks two of its own objects at exit: that library's leaks are the only ones
# suppressed.
ASAN_SCRATCH = .build/asan
test-asan: deps
	swift build --build-tests --sanitize=address --scratch-path $(ASAN_SCRATCH)
	printf 'leak:libXCTest.so\n' > $(ASAN_SCRATCH)/lsan-suppressions.txt
	LSAN_OPTIONS=suppressions=$(CURDIR)/$(ASAN_SCRATCH)/lsan-suppressions.txt \
	    swift test --skip-build --sanitize=address --scratch-path $(ASAN_SCRATCH) --filter ImagingTests

# Real V4L2 capture: a static-stdlib binary against the kernel's vivid camera in a qemu VM (the
# kernel is downloaded once into .build/vivid). Its own scratch folder keeps the static build
# from invalidating the normal one. Only the binary: TestSupport imports Testing, which has no
# static library.
VIVID_CACHE = .build/vivid
STATIC_STAMPCAM = .build/static/release/stampcam
$(STATIC_STAMPCAM): FORCE
	swift build -c release --static-swift-stdlib --scratch-path .build/static --product stampcam
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

# Compares stampcam with pyvips, libvips' CLI, ImageMagick, GraphicsMagick and the libjpeg floor;
# then the browser viewfinder's preview frame rate and shutter → saved latency.
bench: build
	Tests/bench/run.sh
	$(MAKE) bench-web

bench-web: build $(VENV)/.installed
	$(VENV)/bin/python Tests/web/bench.py .build/release/stampcam

install: build
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/stampcam/fonts" "$(DESTDIR)$(PREFIX)/share/stampcam/templates"
	install -m 755 .build/release/stampcam "$(DESTDIR)$(PREFIX)/bin/stampcam"
	install -m 644 fonts/fonts.conf "$(DESTDIR)$(PREFIX)/share/stampcam/fonts/"
	cp -R templates/. "$(DESTDIR)$(PREFIX)/share/stampcam/templates/"

clean:
	rm -rf .build "$(OUT)"
