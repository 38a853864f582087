#!/bin/sh
# Extra link flags for a benchmark: FFTW3 for the FFT comparison when it is
# installed (benchmarks only; the library never depends on it).
case "$1" in
bench_fft*)
    if [ -f /usr/include/fftw3.h ]; then echo "-DHAVE_FFTW3 -lfftw3"; fi ;;
bench_proper)
    echo "examples/proper/cases.c examples/proper/inputs.c" ;;
esac
