# The benchmarks: each is a tool run by path (python tools/bench/bench_rp2040.py --help); the
# package lets other tools and tests import their helpers (bench.bench_rp2040.quiet_turns).
