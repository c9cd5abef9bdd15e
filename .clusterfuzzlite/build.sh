#!/bin/bash -eu
# ClusterFuzzLite builds exactly what OSS-Fuzz builds: ci/oss-fuzz/build.sh
# (the fuzzers, their seed corpora, dictionaries and options in $OUT).
exec bash -eu "$SRC/pgcodec/ci/oss-fuzz/build.sh"
