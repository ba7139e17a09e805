"""Benchmarks (./dev.sh bench, mutants, class-bench): figures, never part of the CI test run."""
