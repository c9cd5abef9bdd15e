#!/bin/bash -eu
# Builds pgcodec's fuzz targets the way OSS-Fuzz and ClusterFuzzLite build a
# project: the compilers and flags come from $CC $CXX $CFLAGS $CXXFLAGS and
# $LIB_FUZZING_ENGINE, the checkout is $SRC/pgcodec, the build tree goes
# under $WORK, and everything the fuzzers need at run time lands in $OUT:
#   <target>                   the fuzzer
#   <target>_seed_corpus.zip   corpus/fuzz/<target>/ and its regressions
#                              (corpus/regressions/fuzz/<target>/, notes left out)
#   <target>.dict              corpus/fuzz/<target>.dict
#   <target>.options           corpus/fuzz/<target>.options ([libfuzzer] dict, max_len)
# It also runs outside Docker with those variables set by hand
# (ci/oss-fuzz/test-local-build does; ctest OssFuzz.LocalBuild runs that).
#
# The targets shipped are the ones that need only the library and
# harness/core (standard C++ library): decode, encode, roundtrip and check.
# Left out, all configured by PGCODEC_FUZZ_REFERENCES=OFF:
# - icu_fuzzer and python_fuzzer link harness/oracle: ICU and an embedded
#   CPython, whose standard library is read at run time from the build
#   machine's prefix, and the divergence registry read at run time from the
#   source tree (corpus/divergences, by absolute path). None of that exists
#   on the machines that run OSS-Fuzz's fuzzers (only $OUT is copied there),
#   and neither ICU nor CPython would be instrumented.
# - names_fuzzer calls libpq's pg_char_to_encoding(). The runner images have
#   no libpq.so.5, and Debian's libpq.a does not hold that function (it is in
#   libpgcommon, which libpq-dev does not ship); building libpq from source
#   for one table lookup over names of at most 128 bytes is not worth it.
#   ci/fuzz runs these three every night instead.
#
# Environment (besides OSS-Fuzz's): PGCODEC_JOBS, build parallelism (default:
# every core); PGCODEC_SEED_ZIP=python makes the seed archives with Python's
# zipfile even where zip is installed (the fallback the local test checks).
set -euo pipefail

src="$SRC/pgcodec"
build="$WORK/pgcodec-build"
targets=(decode_fuzzer encode_fuzzer roundtrip_fuzzer check_fuzzer)

generator=()
if command -v ninja >/dev/null; then
  generator=(-G Ninja)
fi
# No CMAKE_BUILD_TYPE: the flags are exactly OSS-Fuzz's (assertions stay on).
# Warnings are not errors: OSS-Fuzz's compiler and flags are not the ones the
# project's presets check.
cmake -S "$src" -B "$build" "${generator[@]}" \
  -DCMAKE_BUILD_TYPE= \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
  -DPGCODEC_BUILD_FUZZ=ON -DPGCODEC_FUZZ_ENGINE=ON \
  -DPGCODEC_FUZZ_LINK_FLAGS="$LIB_FUZZING_ENGINE" \
  -DPGCODEC_FUZZ_REFERENCES=OFF \
  -DPGCODEC_BUILD_TESTS=OFF -DPGCODEC_BUILD_TOOLS=OFF -DPGCODEC_BUILD_BENCH=OFF -DPGCODEC_BUILD_PYTHON=OFF \
  -DPGCODEC_INSTALL=OFF -DPGCODEC_WERROR=OFF
cmake --build "$build" --target "${targets[@]}" --parallel "${PGCODEC_JOBS:-$(nproc)}"

python=python3
[ -x /usr/bin/python3 ] && python=/usr/bin/python3

# make_zip ARCHIVE FILE...: a flat archive of the files (no directories).
make_zip() {
  local archive=$1
  shift
  rm -f "$archive"
  if [ "${PGCODEC_SEED_ZIP:-}" != python ] && command -v zip >/dev/null; then
    zip -q -j -X "$archive" "$@"
  else
    # `-c` stores each file under its base name.
    "$python" -m zipfile -c "$archive" "$@"
  fi
}

mkdir -p "$OUT"
for t in "${targets[@]}"; do
  cp "$build/fuzz/$t" "$OUT/$t"
  cp "$src/corpus/fuzz/$t.dict" "$src/corpus/fuzz/$t.options" "$OUT/"
  # Inputs are named by a hash of their bytes: a regression that is also in
  # the corpus under the same name goes in once.
  seeds=()
  declare -A seen=()
  for dir in "$src/corpus/fuzz/$t" "$src/corpus/regressions/fuzz/$t"; do
    [ -d "$dir" ] || continue
    while IFS= read -r -d '' f; do
      name=${f##*/}
      [ -z "${seen[$name]:-}" ] || continue
      seen[$name]=1
      seeds+=("$f")
    done < <(find "$dir" -maxdepth 1 -type f ! -name '*.txt' -print0 | sort -z)
  done
  unset seen
  make_zip "$OUT/${t}_seed_corpus.zip" "${seeds[@]}"
done
