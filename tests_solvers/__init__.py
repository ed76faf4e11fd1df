
# The core tasks' bench, for tests that run it in a subprocess (the pitch experiments have
# their own, much larger, runs and tests).
CORE_BENCH = ("bench", "--ignore=bench/test_pitch")
