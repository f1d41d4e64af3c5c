#!/bin/sh
# tests/fuzz/check.sh — demand what `make fuzz` needs: clang with libFuzzer.
command -v clang >/dev/null 2>&1 || {
    echo "make fuzz needs clang with libFuzzer (Debian/Ubuntu: apt-get install clang libclang-rt-dev)"; exit 1; }
echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { return 0; }' |
    clang -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1 || {
    echo "make fuzz: clang has no libFuzzer runtime (Debian/Ubuntu: apt-get install libclang-rt-$(clang -dumpversion | cut -d. -f1)-dev)"; exit 1; }
