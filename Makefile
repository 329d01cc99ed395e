# capaudit: build the BPF object, its skeleton and the capaudit binary into
# build/, the patched kernel into the cache (vm/build-kernel), and run tests.
#
#   make            build/capaudit (links libbpf, libelf, zlib statically)
#   make kernel     Debian's linux-source-6.1 + kernel/patches, cached
#   make demo       everything, then boot the kernel and trace a sample workload
#   make test       every test: host unit tests, then guest tests in QEMU
#   make check      host unit tests only (cmocka), plain and ASan/UBSan
#   make vmtest     guest tests only (tests/vm/*.sh through vm/run)
#   make checkpatch scripts/checkpatch.pl on every patch in kernel/patches

BUILD     ?= build
CC        ?= gcc
CLANG     ?= clang
BPFTOOL   ?= $(shell command -v bpftool 2>/dev/null || echo /usr/sbin/bpftool)
ARCH      := x86
PREFIX    ?= /usr/local

CFLAGS    ?= -O2 -g
ALL_CFLAGS = $(CFLAGS) -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -I$(BUILD) -Ibpf -Idaemon
LDLIBS    := -Wl,-Bstatic -lbpf -lelf -lz -lzstd -lsqlite3 -Wl,-Bdynamic -ljson-c -lcap -lsystemd -lpthread -lm -ldl
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -Wall -Werror -I$(BUILD) -Ibpf

DAEMON_SRCS := $(sort $(wildcard daemon/*.c))
LIB_SRCS    := $(filter-out daemon/main.c,$(DAEMON_SRCS))
LIB_OBJS    := $(patsubst daemon/%.c,$(BUILD)/obj/%.o,$(LIB_SRCS))
UNIT_SRCS   := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS   := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))
PROG_SRCS   := $(sort $(wildcard tests/progs/*.c))
PROG_BINS   := $(patsubst tests/progs/%.c,$(BUILD)/progs/%,$(PROG_SRCS))
DEPS_STAMP  := $(BUILD)/.deps

# The same unit tests built with clang under AddressSanitizer + UBSan
ASAN_BUILD  := $(BUILD)/asan
ASAN_CFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
ASAN_BINS   := $(patsubst tests/unit/%.c,$(ASAN_BUILD)/tests/%,$(UNIT_SRCS))

.PHONY: all asan-bins progs deps kernel demo test check vmtest checkpatch clean install uninstall lint

all: $(BUILD)/capaudit

# One script installs what is missing; silent when nothing is.
deps $(DEPS_STAMP): scripts/deps
	@scripts/deps
	@mkdir -p $(BUILD) && touch $(DEPS_STAMP)

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
	$(CC) $(ALL_CFLAGS) $(BUILD)/obj/main.o -Wl,--whole-archive $(BUILD)/libcapaudit.a \
		-Wl,--no-whole-archive $(LDLIBS) -o $@

# Host unit tests (cmocka), each linked against the daemon's library.
$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libcapaudit.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< $(BUILD)/libcapaudit.a $(LDLIBS) -lcmocka -o $@

# Small programs the guest tests run (one operation, a burst of checks, ...)
$(BUILD)/progs/%: tests/progs/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< -o $@ -lcap -lpthread

progs: $(PROG_BINS)

asan-bins:
	@$(MAKE) --no-print-directory BUILD=$(ASAN_BUILD) CC=clang CFLAGS="$(ASAN_CFLAGS)" $(ASAN_BINS)

check: $(BUILD)/capaudit $(UNIT_BINS) asan-bins
	@tests/run --unit $(UNIT_BINS) $(ASAN_BINS) --scripts tests/build-kernel/run.sh

kernel: | $(DEPS_STAMP)
	@vm/build-kernel

vmtest: $(BUILD)/capaudit $(PROG_BINS) kernel
	@tests/run --vm

demo: $(BUILD)/capaudit $(PROG_BINS) kernel
	@scripts/demo

test: $(BUILD)/capaudit $(UNIT_BINS) asan-bins $(PROG_BINS) kernel
	@tests/run --unit $(UNIT_BINS) $(ASAN_BINS) --scripts tests/build-kernel/run.sh --vm

checkpatch: | $(DEPS_STAMP)
	@scripts/checkpatch

lint:
	clang-format --dry-run --Werror bpf/*.c bpf/capaudit.h daemon/*.c daemon/*.h

clean:
	rm -rf $(BUILD)

.DELETE_ON_ERROR:
