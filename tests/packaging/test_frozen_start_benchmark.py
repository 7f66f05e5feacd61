"""bench/frozen_start.py at its tiny size, on the package the suite builds once per run for its
packaging tests (tests/packaging/conftest.py's `packaged`; CI's own build under
SIDEKICKS_TEST_BUILT_PACKAGE=1): the benchmark still starts the packaged app beside the source
run, and prints both figures and their ratio. No timing is asserted (tests/bench/running.py).

The file lives here, not in tests/bench, so that it shares that build instead of making another
(and tests/scheduling.py puts it in the package group, on the worker that has the build).
"""

from __future__ import annotations

import pytest

from tests.bench.running import assert_printed, run_benchmark
from tests.packaging.layout import Layout, offscreen

# As the other tests of the package: the build may be this test's to wait for.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]


@pytest.mark.linux_only("bench/frozen_start.py drives the Qt window over QtWebEngine's CDP")
def test_the_frozen_start_benchmark_runs_at_its_tiny_size(packaged: Layout) -> None:
    output = run_benchmark(
        "frozen_start", timeout=600, args=[str(packaged.binary)], env=offscreen()
    )
    assert_printed(
        output,
        r"from source +: +{n} ms",
        r"packaged app +: +{n} ms",
        r"^  ratio +: {n}",
    )
