#!/bin/bash -eu
# Builds every nfctrace fuzz target for ClusterFuzzLite/OSS-Fuzz: static Swift stdlib, libFuzzer
# plus $SANITIZER as one combined -sanitize flag (two separate flags lose one, see
# notes/fuzzing-swift.md) on the code under test (NFCTRACE_FUZZ_SANITIZE, read by both
# manifests; not --sanitize=fuzzer, which would instrument every module), each binary with its
# dictionary and seed corpus in $OUT.
# Expects the OSS-Fuzz environment: SRC, OUT, WORK, SANITIZER, CFLAGS (run locally with those set).

cd "$SRC/nfctrace"
# In the image this copies the Swift-aware llvm-symbolizer to $OUT; its SWIFTFLAGS (with
# -parse-as-library) are not used: they break tools-version ≥ 5.5 executable targets.
. precompile_swift 2>/dev/null || true

FLAGS="-c release --static-swift-stdlib"
if [ "$SANITIZER" = "coverage" ]; then
  export NFCTRACE_FUZZ_SANITIZE=fuzzer
  FLAGS="$FLAGS -Xswiftc -profile-generate -Xswiftc -profile-coverage-mapping"
else
  export NFCTRACE_FUZZ_SANITIZE=fuzzer,$SANITIZER
  for f in ${CFLAGS:-}; do FLAGS="$FLAGS -Xcc=$f"; done
fi

# libpcap: the static one built from $SRC/libpcap (the Dockerfile clones it); without that source
# (a local run of this script) the system's shared libpcap and what it needs are copied to
# $OUT/lib and found through an $ORIGIN rpath.
if [ -d "$SRC/libpcap" ]; then
  (cd "$SRC/libpcap" && ./configure --prefix="$WORK/libpcap" --disable-shared --disable-dbus --disable-rdma --disable-usb \
      --disable-bluetooth --disable-netmap --without-libnl CC="${CC:-clang}" CFLAGS="-O1 -fPIC" >/dev/null && make -j"$(nproc)" >/dev/null && make install >/dev/null)
  export PKG_CONFIG_PATH="$WORK/libpcap/lib/pkgconfig"
  FLAGS="$FLAGS -Xlinker -L$WORK/libpcap/lib"
  SHIP_LIBPCAP=0
else
  # DT_RPATH (not RUNPATH) so that libpcap finds its own dependencies in $OUT/lib too.
  FLAGS="$FLAGS -Xlinker -rpath=\$ORIGIN/lib -Xlinker --disable-new-dtags"
  SHIP_LIBPCAP=1
fi

SCRATCH="$WORK/nfctrace-fuzz-$SANITIZER"
swift build --package-path FuzzTesting --scratch-path "$SCRATCH" $FLAGS
BIN=$(swift build --package-path FuzzTesting --scratch-path "$SCRATCH" $FLAGS --show-bin-path)

TARGETS=$(sed -n '/^let targets = \[/,/^\]/p' FuzzTesting/Package.swift | grep -o '"Fuzz[A-Za-z0-9]*"' | tr -d '"')
for t in $TARGETS; do
  cp "$BIN/$t" "$OUT/$t"
  cp "Corpus/$t.dict" "$OUT/$t.dict"
  # len_control as `nfctrace fuzz` sets it (libFuzzer turns it off for targets with a custom mutator).
  printf '[libfuzzer]\ntimeout = 5\nmax_len = 4096\nlen_control = 100\n' > "$OUT/$t.options"
  (cd "Corpus/$t" && zip -q -j "$OUT/${t}_seed_corpus.zip" ./*)
done

if [ "$SHIP_LIBPCAP" = 1 ]; then
  mkdir -p "$OUT/lib"
  ldd "$OUT/$(echo $TARGETS | cut -d' ' -f1)" | awk '/=> \// {print $3}' \
    | grep -Ev '/(libc|libm|libpthread|libdl|librt|libresolv|libgcc_s|libstdc\+\+|ld-linux[^/]*)\.so' | xargs -r -I{} cp -L {} "$OUT/lib/"
fi
