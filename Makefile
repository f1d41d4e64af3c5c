# tkc — GNU make.  `make` builds build/tkc; `make test` runs every test;
# `make demo` runs the README's example; `make deps` installs what is missing.

CC      ?= cc
BISON   ?= bison
RE2C    ?= re2c
PREFIX  ?= /usr/local
B       := build

WARN    := -Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes \
           -Wno-unused-parameter -Wpedantic -Wno-overlength-strings
CFLAGS  ?= -O2 -g
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(EXTRA_CFLAGS) -MMD -MP -I$(B) -I.
LDLIBS  := -lm -ldl -lpthread

# LLVM 19 for --target=nvptx (LLVM's NVPTX backend through the LLVM C API).
# Without it tkc still builds; --target=nvptx then says it was built without
# LLVM.  LLVM_CONFIG= (empty) builds without it on purpose.  The shared
# libLLVM is preferred (link time); a static-only install links statically,
# and LLVM_LINK=static asks for that (a tkc that runs where LLVM is absent).
LLVM_CONFIG ?= $(wildcard /usr/lib/llvm-19/bin/llvm-config)
LLVM_LINK   ?= shared
LLVM_MAJOR  := $(if $(LLVM_CONFIG),$(firstword $(subst ., ,$(shell $(LLVM_CONFIG) --version 2>/dev/null))))
ifeq ($(LLVM_MAJOR),19)
LLVM_CFLAGS := -DTKC_HAVE_LLVM -isystem $(shell $(LLVM_CONFIG) --includedir)
LLVM_LIBDIR := $(shell $(LLVM_CONFIG) --libdir)
LLVM_LIBS   := -L$(LLVM_LIBDIR) -Wl,-rpath,$(LLVM_LIBDIR) \
               $(if $(filter static,$(LLVM_LINK)),,$(shell $(LLVM_CONFIG) --link-shared --libs core passes target nvptx 2>/dev/null)) \
               $(if $(filter static,$(LLVM_LINK)),$(shell $(LLVM_CONFIG) --link-static --libs core passes target nvptx native) \
                 $(patsubst -lzstd,-l:libzstd.so.1,$(shell $(LLVM_CONFIG) --link-static --system-libs)) -lstdc++)
NVPTX_SRCS  := $(filter-out targets/nvptx/none.c,$(wildcard targets/nvptx/*.c))
else
ifneq ($(LLVM_CONFIG),)
$(warning $(LLVM_CONFIG) is not LLVM 19: building without LLVM (no --target=nvptx))
endif
LLVM_CFLAGS :=
LLVM_LIBS   :=
NVPTX_SRCS  := targets/nvptx/none.c
endif

SRCS := $(wildcard lang/*.c) $(wildcard parser/*.c) $(wildcard sema/*.c) \
        $(wildcard lower/*.c) $(wildcard targets/*.c) \
        $(filter-out targets/nvptx/%,$(wildcard targets/*/*.c)) $(NVPTX_SRCS)
GEN  := $(B)/lexer.c $(B)/parser.tab.c
OBJS := $(patsubst %.c,$(B)/obj/%.o,$(SRCS)) $(B)/obj/lexer.o $(B)/obj/parser.tab.o

.PHONY: all deps deps-extra test test-unit test-gpu bench bench-gpu bench-gpu-mem bench-gpu-mm bench-gpu-attn tune-gpu demo asan fuzz install uninstall clean check-deps

all: $(B)/tkc

check-deps:
	@command -v $(BISON) >/dev/null && command -v $(RE2C) >/dev/null || { \
	  echo "tkc needs re2c and bison: run 'make deps' (apt-get install re2c bison)"; exit 1; }

deps:
	@sh tests/deps.sh

deps-extra:
	@sh tests/deps.sh extra

$(B)/parser.tab.c $(B)/parser.tab.h &: parser/parser.y | check-deps
	@mkdir -p $(B)
	$(BISON) -Wall -Werror=conflicts-sr -Werror=conflicts-rr -d -o $(B)/parser.tab.c $<

$(B)/lexer.c: parser/lexer.re $(B)/parser.tab.h | check-deps
	@mkdir -p $(B)
	$(RE2C) -W --no-generation-date -o $@ $<

# The C target's runtime prelude travels inside every header: embed it.
$(B)/c_prelude.inc: targets/c/prelude.h targets/c/vmath.h tests/embed.sh
	@mkdir -p $(B)
	cat targets/c/prelude.h targets/c/vmath.h > $(B)/c_prelude.txt
	sh tests/embed.sh $(B)/c_prelude.txt > $@

$(B)/obj/targets/c/emit.o $(B)/obj/targets/target.o: $(B)/c_prelude.inc

$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# Only the nvptx target sees LLVM's headers; the driver asks target.h.
$(B)/obj/targets/nvptx/%.o: targets/nvptx/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LLVM_CFLAGS) -c -o $@ $<

$(B)/obj/lexer.o: $(B)/lexer.c $(B)/parser.tab.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Iparser -c -o $@ $<

$(B)/obj/parser.tab.o: $(B)/parser.tab.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Iparser -Wno-missing-prototypes -c -o $@ $<

$(patsubst %.c,$(B)/obj/%.o,$(wildcard parser/*.c)): $(B)/parser.tab.h

# The other LLVM configuration's nvptx objects go (tests archive build/obj/),
# and LLVM's flags and libraries are written down for the unit tests.
$(B)/tkc: $(OBJS)
	@rm -f $(filter-out $(OBJS),$(wildcard $(B)/obj/targets/nvptx/*.o))
	@echo '$(LLVM_LIBS)' >$(B)/llvm.libs
	@echo '$(LLVM_CFLAGS)' >$(B)/llvm.cflags
	$(CC) $(ALL_CFLAGS) -o $@ $(OBJS) $(LDLIBS) $(LLVM_LIBS)

test: deps $(B)/tkc
	@sh tests/run.sh

demo: deps $(B)/tkc
	@$(MAKE) -s -C examples demo TKC=../$(B)/tkc

# The log also becomes build/bench/report.md and report.png (tests/bench/report.sh).
bench: deps $(B)/tkc
	@mkdir -p build/bench
	@{ sh tests/bench/run.sh; echo $$? >build/bench/run.rc; } 2>&1 | tee build/bench/bench.log
	@sh tests/bench/report.sh build/bench/bench.log build/bench
	@exit $$(cat build/bench/run.rc)

test-gpu: $(B)/tkc
	@sh tests/gpu/run.sh

# Every GPU benchmark, each next to its rivals in the same run (about 10
# minutes on an H100); the parts: bench-gpu-mem (softmax, layernorm, bias+GELU
# +residual; cuda vs nvptx codegen), bench-gpu-mm (bf16/f16, tf32/i8 matmul, tf32 with B
# transposed (matmul_tf32_nt), bf16 also from LLVM
# vs cuBLAS/Triton), bench-gpu-attn (sdpa, sdpa_relpos vs torch SDPA; also from LLVM), tune-gpu.
bench-gpu: bench-gpu-mem bench-gpu-mm bench-gpu-attn tune-gpu

bench-gpu-mem: $(B)/tkc
	@sh tests/gpu/bench.sh
	@sh tests/gpu/bench.sh codegen

bench-gpu-mm: $(B)/tkc
	@sh tests/gpu/bench_mm.sh
	@sh tests/gpu/bench_dtype.sh
	@sh tests/gpu/bench_tf32.sh

bench-gpu-attn: $(B)/tkc
	@sh tests/gpu/bench_attn.sh

tune-gpu: $(B)/tkc
	@sh tests/gpu/tune.sh

asan:
	$(MAKE) B=build/asan CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -Wno-format-truncation" \
	  LDLIBS="-lm -ldl -fsanitize=address,undefined" build/asan/tkc
	TKC=build/asan/tkc sh tests/run.sh

# libFuzzer over the compiler (tests/fuzz/): clang's objects in build/fuzz/,
# the driver's main left out.  UBSan findings abort, so they count as crashes.
FUZZ_SECONDS ?= 60
FUZZ_CFLAGS := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all \
               -fno-omit-frame-pointer

fuzz:
	@sh tests/fuzz/check.sh
	$(MAKE) B=build/fuzz CC=clang CFLAGS="$(FUZZ_CFLAGS)" build/fuzz/fuzz_tkc
	sh tests/fuzz/run.sh $(FUZZ_SECONDS)

$(B)/fuzz_tkc: tests/fuzz/fuzz_tkc.c $(filter-out $(B)/obj/lang/main.o,$(OBJS))
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS) $(LLVM_LIBS)

# `make install PREFIX=/usr/local [DESTDIR=...]`: the compiler, the stdlib, the
# man page, a pkg-config file and a CMake package (find_package(tkc) gives
# tkc_add_kernel).  `make uninstall` removes exactly those.
VERSION := $(shell sed -n 's/^\#define TKC_VERSION "\(.*\)"/\1/p' lang/lang.h)
DEST := $(DESTDIR)$(PREFIX)
SUBST = sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' -e 's|@MAJOR@|$(firstword $(subst ., ,$(VERSION)))|g'

install: $(B)/tkc
	install -d $(DEST)/bin $(DEST)/share/tkc/stdlib $(DEST)/share/man/man1 $(DEST)/lib/pkgconfig $(DEST)/lib/cmake/tkc
	install -m 755 $(B)/tkc $(DEST)/bin/tkc
	install -m 644 stdlib/*.tk $(DEST)/share/tkc/stdlib/
	install -m 644 doc/tkc.1 $(DEST)/share/man/man1/tkc.1
	$(SUBST) cmake/tkc.pc.in > $(DEST)/lib/pkgconfig/tkc.pc
	install -m 644 cmake/tkcConfig.cmake cmake/tkc.cmake $(DEST)/lib/cmake/tkc/
	$(SUBST) cmake/tkcConfigVersion.cmake.in > $(DEST)/lib/cmake/tkc/tkcConfigVersion.cmake

uninstall:
	rm -f $(DEST)/bin/tkc $(DEST)/share/man/man1/tkc.1 $(DEST)/lib/pkgconfig/tkc.pc
	rm -rf $(DEST)/share/tkc $(DEST)/lib/cmake/tkc

clean:
	rm -rf build

-include $(OBJS:.o=.d)
