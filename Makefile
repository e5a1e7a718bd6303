# readguard: read-before-write protection for process trees.
#
# Sections: settings, build, install, test, bench, lint, fuzz. Every target
# that builds something writes under $(B); the sanitizer builds use a $(B) of
# their own (build/asan, build/ubsan, build/tsan).

# --- settings ------------------------------------------------------------------
VERSION   := 0.1.0
PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
LIBDIR    ?= $(PREFIX)/lib
MANDIR    ?= $(PREFIX)/share/man
COMPDIR   ?= $(PREFIX)/share/bash-completion/completions
DATADIR   ?= $(PREFIX)/share/readguard
DESTDIR   ?=

CC        ?= cc
CFLAGS    ?= -O2 -g
WARN      := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
CPPFLAGS  += -D_GNU_SOURCE -DRG_VERSION='"$(VERSION)"' -Ishim
# Debian's multiarch triplet: ld.so's $LIB is lib/$(MULTIARCH), so the shim
# installed there is named through $LIB in LD_PRELOAD (see shim/cli/launch/shim_path.c).
MULTIARCH ?= $(shell $(CC) -print-multiarch 2>/dev/null)
CPPFLAGS  += -DRG_MULTIARCH='"$(MULTIARCH)"'
B         := build

# musl: `make musl` builds, with musl-gcc (Debian's musl-tools), a second tree
# in build/musl/: the shim that musl programs load (installed in musl/ beside
# the glibc one), the command and the unit tests, from the same sources;
# shim/musl/ fills in what musl lacks (shim/musl/compat.h). On Alpine, where
# cc is musl's own: make musl MUSL_CC=cc (not tried here).
MUSL_CC   ?= musl-gcc
HAVE_MUSL := $(shell command -v $(MUSL_CC) 2>/dev/null)
LIBBSD    := -lbsd
ifneq ($(RG_MUSL),)
MUSL_INC  := $(B)/include
CPPFLAGS  += -include shim/musl/compat.h -Ishim/musl -idirafter $(MUSL_INC)
LIBBSD    :=
MUSL_CLI_OBJ := $(B)/obj/musl_renameat2.o
endif

# --- build -----------------------------------------------------------------------
# One folder per layer, each using only those before it:
#   core <- os <- guard <- {preload, supervise}; cli uses any of them.
# scripts/dev/check-layers.sh enforces that order (make lint, t0030).
CORE      := $(wildcard shim/core/*.c)
OS        := $(wildcard shim/os/*.c)
GUARD     := $(wildcard shim/guard/*.c shim/guard/journal/*.c shim/guard/tier/*.c)
PRELOAD   := $(wildcard shim/preload/*.c shim/preload/hooks/*.c)
SUPERVISE := $(wildcard shim/supervise/*.c)
CLI       := $(wildcard shim/cli/*.c shim/cli/verbs/*.c shim/cli/journal/*.c shim/cli/undo/*.c shim/cli/launch/*.c shim/cli/json/*.c \
	shim/cli/hook/*.c)
HEADERS   := $(wildcard shim/*/*.h shim/*/*.def)

obj = $(patsubst shim/%.c,$(B)/obj/%.o,$(1))
pic = $(patsubst shim/%.c,$(B)/pic/%.o,$(1))

# The shim is position-independent and exports only its hooks; the command,
# the unit tests and the benchmarks link the same layers as plain objects.
SHIM_OBJ  := $(call pic,$(CORE) $(OS) $(GUARD) $(PRELOAD))
LIB_OBJ   := $(call obj,$(CORE) $(OS) $(GUARD) $(SUPERVISE))
CLI_OBJ   := $(call obj,$(CLI))

all: $(B)/readguard $(B)/libreadguard.so

# Names the -dev packages a build lacks, once per build tree, rather than
# leaving the compiler to stop at a missing header.
$(B)/deps.ok: scripts/dev/check-build-deps.sh
	@$(if $(RG_MUSL),true,CC="$(CC)" scripts/dev/check-build-deps.sh)
	@mkdir -p $(@D) && touch $@

$(B)/pic/%.o: shim/%.c | $(B)/deps.ok
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -MMD -MP -fPIC -fvisibility=hidden -DRG_LIBRARY -c -o $@ $<

$(B)/obj/%.o: shim/%.c | $(B)/deps.ok
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -MMD -MP -c -o $@ $<

-include $(SHIM_OBJ:.o=.d) $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d)

# Only the hooks leave the shim: the version script lists what
# shim/preload/hooks.def lists, and nothing else.
$(B)/export.map: shim/preload/hooks.def
	@mkdir -p $(@D)
	{ echo '{ global:'; \
	  $(CC) -E -P -x c -D'RG_HOOK(family, shape, symbol)=symbol;' $<; \
	  echo '  local: *; };'; } >$@

# No C start files (crti, crtbegin, crtend, crtn): ld.so runs the shim's
# constructor and destructor from init_array and fini_array itself, and
# those files would add four symbols for ld.so to look up in every process
# at load, about 2,700 instructions: the transactional-memory and profiling
# hooks, which no library defines and so are looked for in all of them, and
# __cxa_finalize, which runs nothing of the shim's. preload/dso.c holds
# the one thing of theirs the shim uses. That finalize also dropped the
# shim's fork handlers when a program's dlclose unmapped it; -z nodelete
# keeps it mapped instead, so a later fork never calls into nothing.
# shim/preload/data.ld stores the zero-initialised data in the file: ld.so
# then maps no anonymous .bss for the shim, one mmap fewer in every process.
$(B)/libreadguard.so: $(SHIM_OBJ) $(B)/export.map shim/preload/data.ld
	$(CC) $(CFLAGS) -shared -nostartfiles -Wl,--version-script=$(B)/export.map -Wl,-z,defs -Wl,-z,nodelete \
		-Wl,-T,shim/preload/data.ld -o $@ $(SHIM_OBJ) -ldl

$(B)/readguard: $(CLI_OBJ) $(LIB_OBJ) $(MUSL_CLI_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(LIBBSD) -pthread

ifneq ($(RG_MUSL),)
$(B)/obj/musl_renameat2.o: shim/musl/renameat2.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -c -o $@ $<
# musl-gcc sees only musl's headers: the kernel's and uthash come from the
# host, through links, never glibc's own headers.
$(MUSL_INC):
	mkdir -p $@
	for h in linux asm-generic uthash.h; do ln -sfn /usr/include/$$h $@/$$h; done
	ln -sfn /usr/include/$(MULTIARCH)/asm $@/asm
$(SHIM_OBJ) $(LIB_OBJ) $(CLI_OBJ) $(MUSL_CLI_OBJ): | $(MUSL_INC)
endif

MUSL_MAKE := $(MAKE) --no-print-directory B=$(B)/musl CC=$(MUSL_CC) RG_MUSL=1 MULTIARCH=$(MULTIARCH)

musl:
	@command -v $(MUSL_CC) >/dev/null || scripts/dev/install-deps.sh musl
	$(MUSL_MAKE) $(B)/musl/libreadguard.so $(B)/musl/readguard

# --- install ---------------------------------------------------------------------
# The shim goes under lib/<multiarch>/ so that LD_PRELOAD can name it through
# ld.so's $LIB, which each program expands for its own ELF class.
SHIMDIR   ?= $(LIBDIR)$(if $(MULTIARCH),/$(MULTIARCH))/readguard
MANPAGE   := shim/cli/readguard.1
COMPLETION := scripts/share/readguard.bash-completion
CLAUDE    := scripts/share/integrations/claude-code
SANDBOX   := scripts/share/integrations/sandbox

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SHIMDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(COMPDIR) $(DESTDIR)$(DATADIR)
	install -m 0755 $(B)/readguard $(DESTDIR)$(BINDIR)/readguard
	install -m 0644 $(B)/libreadguard.so $(DESTDIR)$(SHIMDIR)/libreadguard.so
	if [ -f $(B)/musl/libreadguard.so ]; then \
		install -d $(DESTDIR)$(SHIMDIR)/musl && \
		install -m 0644 $(B)/musl/libreadguard.so $(DESTDIR)$(SHIMDIR)/musl/libreadguard.so; fi
	install -m 0644 $(MANPAGE) $(DESTDIR)$(MANDIR)/man1/readguard.1
	install -m 0644 $(COMPLETION) $(DESTDIR)$(COMPDIR)/readguard
	install -m 0644 $(CLAUDE)/settings.json $(DESTDIR)$(DATADIR)/claude-code-settings.json
	install -m 0755 $(SANDBOX)/readguard-bwrap $(SANDBOX)/readguard-firejail $(DESTDIR)$(DATADIR)/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/readguard $(DESTDIR)$(SHIMDIR)/libreadguard.so \
		$(DESTDIR)$(SHIMDIR)/musl/libreadguard.so \
		$(DESTDIR)$(MANDIR)/man1/readguard.1 $(DESTDIR)$(COMPDIR)/readguard \
		$(DESTDIR)$(DATADIR)/claude-code-settings.json \
		$(DESTDIR)$(DATADIR)/readguard-bwrap $(DESTDIR)$(DATADIR)/readguard-firejail
	-rmdir $(DESTDIR)$(SHIMDIR)/musl $(DESTDIR)$(SHIMDIR) $(DESTDIR)$(DATADIR)

# A Debian package: dpkg-deb over a `make install PREFIX=/usr` staging root;
# the packaging files are in scripts/dev/deb/. lintian checks it in
# tests/e2e/t2140-deb.bats.
deb: all
	scripts/dev/deb/build.sh $(B)/deb $(VERSION)

clean:
	rm -rf $(B)

# --- test ------------------------------------------------------------------------
# C unit tests of the pure parts (tests/unit), the committed fuzz corpus
# replayed through a gcc build of each harness (tests/fuzz), and the bats
# suites (tests/e2e) against the real shim in real processes.
UNIT_BIN   := $(patsubst tests/unit/%.c,$(B)/unit/%,$(wildcard tests/unit/test_*.c))
FUZZ       := $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_REPLAY_BIN := $(FUZZ:%=$(B)/fuzz-replay/%)
HELPERS    := $(patsubst tests/helpers/%.c,%,$(wildcard tests/helpers/*.c))
HELPER_BIN := $(HELPERS:%=$(B)/t/%) \
	$(if $(filter rgprobe,$(HELPERS)),$(B)/t/rgprobe-fortify $(B)/t/rgprobe64) \
	$(B)/t/rgrace-dyn $(patsubst tests/helpers/lib/%.c,$(B)/t/lib%.so,$(wildcard tests/helpers/lib/*.c))
# Statically linked test programs: the preload cannot see them.
STATIC_BIN := $(patsubst tests/helpers/static/%.c,$(B)/t/%,$(wildcard tests/helpers/static/*.c))
# The benchmark harnesses (see bench), for the smoke test.
BENCH_BIN  := $(B)/bench/rgbench $(B)/bench/rgtable $(B)/bench/librgfloor.so $(B)/bench/rgnotify

deps:
	@scripts/dev/install-deps.sh test

# Go for the supervised-mode tests; they skip, saying why, without it.
deps-supervise:
	-@scripts/dev/install-deps.sh supervise || echo "readguard: no Go: its supervised-mode tests will be skipped" >&2

# The musl tree's unit tests (musl-tools is one of make test's dependencies).
MUSL_UNIT_BIN := $(patsubst $(B)/%,$(B)/musl/%,$(UNIT_BIN))

check-build: all $(UNIT_BIN) $(FUZZ_REPLAY_BIN) $(HELPER_BIN) $(STATIC_BIN) $(BENCH_BIN) \
	$(if $(HAVE_MUSL),musl-check-build)

musl-unit: musl
	$(MUSL_MAKE) unit

musl-check-build: musl
	$(MUSL_MAKE) $(MUSL_UNIT_BIN)

test: deps deps-supervise
	$(MAKE) check-build
	scripts/dev/run-tests.sh $(UNIT_BIN) $(FUZZ_REPLAY_BIN) \
		$$(command -v $(MUSL_CC) >/dev/null && echo $(MUSL_UNIT_BIN))

unit: $(UNIT_BIN) $(FUZZ_REPLAY_BIN)
	scripts/dev/run-tests.sh --unit-only $(UNIT_BIN) $(FUZZ_REPLAY_BIN)

$(B)/unit/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(LIB_OBJ) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $< $(LIB_OBJ) -pthread

$(B)/t/%: tests/helpers/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -O2 $(WARN) -pthread -o $@ $<

$(B)/t/%: tests/helpers/static/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -O2 $(WARN) -static -pthread -o $@ $<

# Libraries for tests to load (tests/helpers/lib): rgforkload's to dlopen,
# undo's race to preload.
$(B)/t/lib%.so: tests/helpers/lib/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -O2 $(WARN) -shared -fPIC -o $@ $<

# rgrace linked dynamically, for races the library's hooks must see.
$(B)/t/rgrace-dyn: tests/helpers/static/rgrace.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -O2 $(WARN) -pthread -o $@ $<

$(B)/t/rgprobe-fortify: tests/helpers/rgprobe.c
	@mkdir -p $(@D)
	$(CC) -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=2 -O2 $(WARN) -D_GNU_SOURCE -o $@ $<

$(B)/t/rgprobe64: tests/helpers/rgprobe.c
	@mkdir -p $(@D)
	$(CC) -D_FILE_OFFSET_BITS=64 -O2 $(WARN) -D_GNU_SOURCE -o $@ $<

# Each sanitizer builds the layers and the unit tests into a tree of its own
# and runs them there; any report fails the run. tsan's stress is
# tests/unit/test_table_threads.c and test_entry_threads.c.
SAN_FLAGS_asan  := -fsanitize=address -fno-omit-frame-pointer
SAN_FLAGS_ubsan := -fsanitize=undefined -fno-sanitize-recover=all
SAN_FLAGS_tsan  := -fsanitize=thread
SAN_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 TSAN_OPTIONS=halt_on_error=1

asan ubsan tsan:
	$(MAKE) --no-print-directory B=$(B)/$@ CFLAGS="-O1 -g $(SAN_FLAGS_$@)" san-unit

# Called by the three above with B and CFLAGS set.
san-unit: $(UNIT_BIN) $(FUZZ_REPLAY_BIN)
	$(SAN_ENV) scripts/dev/run-tests.sh --unit-only $(UNIT_BIN) $(FUZZ_REPLAY_BIN)

# CPython's own tests of the file-system layer, with and without readguard
# (warn mode): per-test outcomes must be identical. Enforce mode is run too,
# and only reported.
deps-foreign:
	@scripts/dev/install-deps.sh foreign

test-foreign: deps-foreign all
	scripts/dev/test-foreign.sh

# --- bench -----------------------------------------------------------------------
# The harnesses are built by check-build too, so the smoke test can run them;
# hyperfine and the timed runs are only needed by `make bench` (BENCHMARKS.md).

$(B)/bench/rgbench: tests/bench/rgbench.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -O2 -g $(WARN) -o $@ $<

$(B)/bench/rgtable: tests/bench/rgtable.c $(LIB_OBJ) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -O2 -g $(WARN) -o $@ $< $(LIB_OBJ) -pthread

# The measured floors of the macro rows: a preloaded library without readguard.
$(B)/bench/librgfloor.so: tests/bench/rgfloor.c tests/bench/rgfloor_rename.c tests/bench/rgfloor_jmap.c \
		tests/bench/rgfloor.h tests/bench/rawsys.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -U_FORTIFY_SOURCE -O2 -g $(WARN) -shared -fPIC -o $@ $(filter %.c,$^)

# The measured floor of the --supervise row: the round trips alone.
$(B)/bench/rgnotify: tests/bench/rgnotify.c shim/os/sys.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -O2 -g $(WARN) -o $@ $< -pthread

# The full run rewrites BENCHMARKS.md; the quick one only prints the table.
bench: all $(BENCH_BIN)
	@scripts/dev/install-deps.sh bench
	RG_BENCH_BUDGET=$(RG_BENCH_BUDGET) RG_BENCH_HEAVY_ROUNDS=$(RG_BENCH_HEAVY_ROUNDS) \
		scripts/dev/bench.sh --out BENCHMARKS.md

bench-quick: all $(BENCH_BIN)
	@scripts/dev/install-deps.sh bench
	scripts/dev/bench.sh --quick

# What the supervised modes cost on a make -j2 workload.
bench-supervise: all
	scripts/dev/bench-supervise.sh

# What guarding Claude Code's Bash tool shell costs per command (readguard.1).
bench-claude: all
	scripts/dev/bench-claude-shell.sh

# --- lint ------------------------------------------------------------------------
# The layer order, the format (.clang-format), cppcheck and clang-tidy (its
# checks, and why each exclusion, are in .clang-tidy). cppcheck sees the
# x86_64 side of sys.c's per-architecture syscall code.
LINT_SRC   := $(CORE) $(OS) $(GUARD) $(PRELOAD) $(SUPERVISE) $(CLI)
FORMAT_SRC := $(LINT_SRC) $(wildcard shim/*/*.h shim/*/*/*.h tests/*/*.c tests/*/*.h \
	tests/helpers/static/*.c tests/helpers/lib/*.c)

lint: deps-lint
	scripts/dev/check-layers.sh shim
	clang-format --dry-run --Werror $(FORMAT_SRC)
	cppcheck --enable=warning,portability,performance --error-exitcode=1 --inline-suppr \
		--quiet --std=c11 -D_GNU_SOURCE -D__x86_64__ -Ishim $(LINT_SRC)
	clang-tidy --quiet $(LINT_SRC) -- $(CPPFLAGS)

deps-lint:
	@scripts/dev/install-deps.sh lint

# --- fuzz ------------------------------------------------------------------------
# libFuzzer harnesses in tests/fuzz/. `make fuzz` runs a campaign with clang
# (FUZZ_RUNS executions per harness); `make test` only replays the committed
# corpus, through a gcc build of each harness and tests/fuzz/replay.c.
FUZZ_SRC  := $(CORE) $(OS)
FUZZ_RUNS ?= 1000000
FUZZ_CC   ?= clang

$(B)/fuzz-replay/%: tests/fuzz/%.c tests/fuzz/replay.c tests/fuzz/fuzz.h $(LIB_OBJ) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -DFUZZ_CORPUS='"tests/fuzz/corpus/$*"' \
		-o $@ $< tests/fuzz/replay.c $(LIB_OBJ) -pthread

$(B)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz.h $(FUZZ_SRC) $(HEADERS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -o $@ $< $(FUZZ_SRC)

deps-fuzz:
	@scripts/dev/install-deps.sh fuzz

fuzz: deps-fuzz
	$(MAKE) $(FUZZ:%=$(B)/fuzz/%)
	scripts/dev/fuzz.sh run $(FUZZ_RUNS) $(FUZZ)

# Folds what a campaign found into the committed corpus, minimised.
fuzz-merge:
	scripts/dev/fuzz.sh merge 0 $(FUZZ)

.PHONY: all musl musl-unit musl-check-build install uninstall deb clean deps deps-supervise check-build test unit \
	asan ubsan tsan san-unit deps-foreign test-foreign bench bench-quick bench-supervise bench-claude \
	lint deps-lint deps-fuzz fuzz fuzz-merge
.DELETE_ON_ERROR:
