#!/bin/sh
# Extra link flags and sources for a benchmark: FFTW3 for the FFT comparison
# when it is installed (benchmarks only; the library never depends on it);
# the annotated-code case studies for bench_annotated.
case "$1" in
bench_fft*)
    if [ -f /usr/include/fftw3.h ]; then echo "-DHAVE_FFTW3 -lfftw3"; fi ;;
bench_annotated)
    echo "examples/annotated/cases.c examples/annotated/inputs.c" ;;
esac
