# capaudit: build the BPF object, its skeleton and the capaudit binary into
# build/, the patched kernel into the cache (vm/build-kernel), and run tests.
#
#   make            build/capaudit (links libbpf, libelf, zlib statically)
#   make kernel     Debian's linux-source-6.1 + kernel/patches, cached
#   make kernels    that kernel and Debian's own 6.1 and 6.12 (vm/debian-kernel)
#   make demo       everything, then boot the kernel and trace a sample workload
#   make test       every test: host unit tests, then guest tests in QEMU
#   make check      host unit tests only (cmocka), plain and ASan/UBSan
#   make vmtest     guest tests only (tests/vm/*.sh through vm/run, on each
#                   kernel of CAPAUDIT_KERNELS: patched debian-6.1 debian-6.12)
#   make checkpatch scripts/checkpatch.pl on every patch in kernel/patches
#   make lint       checkpatch.pl -f on capaudit's own C
#   make install    binary, unit, rules, config, man page (PREFIX, DESTDIR)

# x86_64 only: the BPF program reads x86's saved registers and system call
# numbers (orig_ax, the syscall table); refused here rather than miscounted.
ifneq ($(shell uname -m),x86_64)
$(error capaudit supports x86_64 only, not $(shell uname -m))
endif

BUILD     ?= build
CC        ?= gcc
CLANG     ?= clang
BPFTOOL   ?= $(shell command -v bpftool 2>/dev/null || echo /usr/sbin/bpftool)
ARCH      := x86
PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
DATADIR   ?= $(PREFIX)/share/capaudit
MANDIR    ?= $(PREFIX)/share/man
UNITDIR   ?= $(PREFIX)/lib/systemd/system

CFLAGS    ?= -O2 -g
# capaudit --version: git describe of the checkout, else "unknown" (a tarball)
VERSION   ?= $(or $(shell git describe --tags --always --dirty 2>/dev/null),unknown)
ALL_CFLAGS = $(CFLAGS) -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE \
	     -DCAPAUDIT_DATADIR='"$(DATADIR)"' -I$(BUILD) -Ibpf -Idaemon
LDLIBS    := -Wl,-Bstatic -lbpf -lelf -lz -lzstd -lsqlite3 -Wl,-Bdynamic -ldw -ljson-c -lcap -lsystemd -lpthread -lm -ldl
BPF_CFLAGS := -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_$(ARCH) -Wall -Werror -I$(BUILD) -Ibpf

DAEMON_SRCS := $(sort $(wildcard daemon/*.c))
LIB_SRCS    := $(filter-out daemon/main.c,$(DAEMON_SRCS))
LIB_OBJS    := $(patsubst daemon/%.c,$(BUILD)/obj/%.o,$(LIB_SRCS))
UNIT_SRCS   := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS   := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))
HOST_TESTS  := $(sort $(wildcard tests/host/[0-9]*.sh))
PROG_SRCS   := $(sort $(wildcard tests/progs/*.c))
BENCH_SRCS  := $(sort $(wildcard tests/bench/*.c))
# capstorm, the guest tests' burst of sethostname checks, is capbench under
# the name the tests look for in comm and workload names.
PROG_BINS   := $(patsubst tests/progs/%.c,$(BUILD)/progs/%,$(PROG_SRCS)) \
	       $(patsubst tests/bench/%.c,$(BUILD)/progs/%,$(BENCH_SRCS)) $(BUILD)/progs/capstorm \
	       $(BUILD)/progs/floor
DEPS_STAMP  := $(BUILD)/.deps

# The same unit tests built with clang under AddressSanitizer + UBSan
ASAN_BUILD  := $(BUILD)/asan
ASAN_CFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
ASAN_BINS   := $(patsubst tests/unit/%.c,$(ASAN_BUILD)/tests/%,$(UNIT_SRCS))

.PHONY: all vmlinux-h asan-bins progs capstack deps kernel kernels debian-kernels demo test check vmtest bench soak checkpatch clean install uninstall lint

all: $(BUILD)/capaudit

# One script installs what is missing; silent when nothing is.
deps $(DEPS_STAMP): scripts/deps
	@scripts/deps
	@mkdir -p $(BUILD) && touch $(DEPS_STAMP)

# bpf/vmlinux.h is pinned: generated from the BTF of the kernel that
# vm/build-kernel builds (make vmlinux-h), so that `make` needs no kernel.
# CO-RE relocates every field access for the kernel it runs on.
vmlinux-h:
	$(BPFTOOL) btf dump file $$(vm/build-kernel --print-dir)/vmlinux format c > bpf/vmlinux.h

$(BUILD)/vmlinux.h: bpf/vmlinux.h | $(DEPS_STAMP)
	@mkdir -p $(BUILD)
	cp $< $@

$(BUILD)/capaudit.bpf.o: bpf/capaudit.bpf.c bpf/capaudit.h $(BUILD)/vmlinux.h | $(DEPS_STAMP)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BUILD)/capaudit.skel.h: $(BUILD)/capaudit.bpf.o
	$(BPFTOOL) gen skeleton $< name capaudit_bpf > $@

$(BUILD)/syscall_names.h: scripts/gen-syscall-names | $(DEPS_STAMP)
	@mkdir -p $(BUILD)
	scripts/gen-syscall-names > $@

# -MMD: each object depends on the headers it really includes
$(BUILD)/obj/%.o: daemon/%.c $(BUILD)/capaudit.skel.h $(BUILD)/syscall_names.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

-include $(wildcard $(BUILD)/obj/*.d)

$(BUILD)/libcapaudit.a: $(LIB_OBJS)
	ar rcs $@ $^

$(BUILD)/capaudit: $(BUILD)/obj/main.o $(BUILD)/libcapaudit.a
	$(CC) $(ALL_CFLAGS) $(BUILD)/obj/main.o $(BUILD)/libcapaudit.a $(LDLIBS) -o $@

# Host unit tests (cmocka), each linked against the daemon's library.
$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libcapaudit.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< $(BUILD)/libcapaudit.a $(LDLIBS) -lcmocka -o $@

# Small programs the guest tests run (one operation, a burst of checks, ...)
$(BUILD)/progs/%: tests/progs/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< -o $@ -lcap -lpthread

$(BUILD)/progs/%: tests/bench/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< -o $@ -lpthread

$(BUILD)/progs/capstorm: tests/bench/capbench.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< -o $@ -lpthread

# The benchmark's floors (tests/bench/floor): a BPF object, its skeleton, a loader
$(BUILD)/floor.bpf.o: tests/bench/floor/floor.bpf.c $(BUILD)/vmlinux.h | $(DEPS_STAMP)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BUILD)/floor.skel.h: $(BUILD)/floor.bpf.o
	$(BPFTOOL) gen skeleton $< name floor_bpf > $@

$(BUILD)/progs/floor: tests/bench/floor/floor.c $(BUILD)/floor.skel.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< $(LDLIBS) -o $@

progs: $(PROG_BINS)

# The benchmark's test module (tests/bench/capstack), built against the
# kernel of make kernel, loaded only in the guest.  kbuild is incremental:
# it rebuilds the module when the kernel's headers change.
CAPSTACK_DIR := $(abspath $(BUILD))/capstack
capstack: kernel
	@mkdir -p $(CAPSTACK_DIR)
	@cp -p tests/bench/capstack/capstack.c tests/bench/capstack/Kbuild $(CAPSTACK_DIR)/
	@kb=$$(vm/build-kernel --print-dir) && \
	  $(MAKE) -s -C "$$kb" M=$(CAPSTACK_DIR) KBUILD_EXTRA_SYMBOLS="$$kb/vmlinux.symvers" modules

asan-bins:
	@$(MAKE) --no-print-directory BUILD=$(ASAN_BUILD) CC=clang CFLAGS="$(ASAN_CFLAGS)" $(ASAN_BINS)

check: $(BUILD)/capaudit $(UNIT_BINS) asan-bins fuzz-bins
	@tests/run --unit $(UNIT_BINS) $(ASAN_BINS) --scripts tests/build-kernel/run.sh $(HOST_TESTS)

kernel: | $(DEPS_STAMP)
	@vm/build-kernel

# Debian's own kernels the guest tests also run on (vm/run --debian-kernel):
# the newest linux-image of each series apt knows, its modules and an
# initramfs, cached by package version.
DEBIAN_SERIES := 6.1 6.12
debian-kernels: | $(DEPS_STAMP)
	@for s in $(DEBIAN_SERIES); do vm/debian-kernel $$s >/dev/null || exit 1; done

kernels: kernel debian-kernels

vmtest: $(BUILD)/capaudit $(PROG_BINS) kernel debian-kernels
	@tests/run --vm

demo: $(BUILD)/capaudit $(PROG_BINS) kernel
	@scripts/demo

test: $(BUILD)/capaudit $(UNIT_BINS) asan-bins fuzz-bins $(PROG_BINS) kernel debian-kernels
	@tests/run --unit $(UNIT_BINS) $(ASAN_BINS) --scripts tests/build-kernel/run.sh $(HOST_TESTS) --vm

# Figures, not a test: the per-check cost in the guest and the scan, into docs/benchmarks.md
bench: $(BUILD)/capaudit $(PROG_BINS) kernel capstack
	@scripts/bench

# capaudit.service for SOAK_SECONDS (600) under a mixed load: figures, verdicts
soak: $(BUILD)/capaudit $(PROG_BINS) kernel
	@scripts/soak

checkpatch: | $(DEPS_STAMP)
	@scripts/checkpatch

# The kernel's checkpatch.pl -f on capaudit's own C (also a test: tests/host/095-style.sh)
lint: | $(DEPS_STAMP)
	@scripts/checkpatch --sources

clean:
	rm -rf $(BUILD)

# The installed paths: the rules' directory is compiled in, and the unit, the
# configuration and the man page name them.  Rebuilt when one changes.
INSTALL_PATHS := $(BINDIR) $(DATADIR) $(UNITDIR)
$(BUILD)/install-paths: FORCE
	@mkdir -p $(BUILD) && echo '$(INSTALL_PATHS)' | cmp -s - $@ || echo '$(INSTALL_PATHS)' >$@

$(BUILD)/obj/reportopts.o: $(BUILD)/install-paths

# The version is compiled into cli.o only, rebuilt when it changes
$(BUILD)/version: FORCE
	@mkdir -p $(BUILD) && echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' >$@

$(BUILD)/obj/cli.o: $(BUILD)/version
$(BUILD)/obj/cli.o: ALL_CFLAGS += -DCAPAUDIT_VERSION='"$(VERSION)"'

FORCE:

INSTALL_SED := sed -e 's|/usr/local/bin/capaudit|$(BINDIR)/capaudit|g' \
		   -e 's|/usr/local/share/capaudit|$(DATADIR)|g' \
		   -e 's|/usr/local/lib/systemd/system|$(UNITDIR)|g'

$(BUILD)/install/%: % $(BUILD)/install-paths
	@mkdir -p $(dir $@)
	$(INSTALL_SED) $< >$@

INSTALL_FILES := $(BUILD)/install/capaudit.service $(BUILD)/install/etc/capaudit.conf \
		 $(BUILD)/install/docs/capaudit.8

# The configuration goes to /etc/capaudit (the path compiled into capaudit
# record) and is never overwritten; uninstall keeps it when it was edited.
install: $(BUILD)/capaudit $(INSTALL_FILES)
	install -D -m 0755 $(BUILD)/capaudit $(DESTDIR)$(BINDIR)/capaudit
	install -D -m 0644 rules/capaudit.rules $(DESTDIR)$(DATADIR)/capaudit.rules
	install -D -m 0644 $(BUILD)/install/capaudit.service $(DESTDIR)$(UNITDIR)/capaudit.service
	install -D -m 0644 $(BUILD)/install/docs/capaudit.8 $(DESTDIR)$(MANDIR)/man8/capaudit.8
	@if [ -e $(DESTDIR)/etc/capaudit/capaudit.conf ]; then \
		echo "install: keeping $(DESTDIR)/etc/capaudit/capaudit.conf"; \
	else \
		echo install -D -m 0644 $(BUILD)/install/etc/capaudit.conf \
			$(DESTDIR)/etc/capaudit/capaudit.conf; \
		install -D -m 0644 $(BUILD)/install/etc/capaudit.conf \
			$(DESTDIR)/etc/capaudit/capaudit.conf; \
	fi

uninstall: $(BUILD)/install/etc/capaudit.conf
	rm -f $(DESTDIR)$(BINDIR)/capaudit $(DESTDIR)$(DATADIR)/capaudit.rules \
		$(DESTDIR)$(UNITDIR)/capaudit.service $(DESTDIR)$(MANDIR)/man8/capaudit.8
	rmdir $(DESTDIR)$(DATADIR) 2>/dev/null || true
	@if cmp -s $< $(DESTDIR)/etc/capaudit/capaudit.conf; then \
		echo rm -f $(DESTDIR)/etc/capaudit/capaudit.conf; \
		rm -f $(DESTDIR)/etc/capaudit/capaudit.conf; \
		rmdir $(DESTDIR)/etc/capaudit 2>/dev/null || true; \
	elif [ -e $(DESTDIR)/etc/capaudit/capaudit.conf ]; then \
		echo "uninstall: keeping the edited $(DESTDIR)/etc/capaudit/capaudit.conf"; \
	fi

# libFuzzer (clang): one target per parser, tests/fuzz/fuzz_<parser>.c, linked
# against the daemon's library built with coverage instrumentation, ASan and
# UBSan in $(FUZZ_BUILD).  `make fuzz` runs each for FUZZ_SECONDS on a copy of
# its seed corpus tests/fuzz/corpus/<parser> (new inputs stay in the copy);
# `make test` runs each for FUZZ_SMOKE_SECONDS (tests/host/090-fuzz-smoke.sh).
.PHONY: fuzz fuzz-bins
FUZZ_SECONDS       ?= 600
FUZZ_SMOKE_SECONDS ?= 15
FUZZ_BUILD  := $(BUILD)/fuzz
FUZZ_CFLAGS := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all \
	       -fno-omit-frame-pointer
FUZZ_NAMES  := $(patsubst tests/fuzz/fuzz_%.c,%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_BINS   := $(patsubst %,$(FUZZ_BUILD)/fuzz_%,$(FUZZ_NAMES))

$(FUZZ_BUILD)/lib/libcapaudit.a: FORCE
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD)/lib CC=clang CFLAGS="$(FUZZ_CFLAGS)" $@

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_input.h $(FUZZ_BUILD)/lib/libcapaudit.a
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Werror \
		-I$(FUZZ_BUILD)/lib -Ibpf -Idaemon $< $(FUZZ_BUILD)/lib/libcapaudit.a $(LDLIBS) -o $@

fuzz-bins: $(FUZZ_BINS)

fuzz: fuzz-bins
	@FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz $(FUZZ_BUILD) $(FUZZ_NAMES)

.DELETE_ON_ERROR:
