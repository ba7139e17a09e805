"""A kill that rests on one or two requirement ids is graded once more before it counts.

On a loaded machine a timing-sensitive check (M7.1's live prefetch sampling, for one) can
fail a mutant once for reasons that have nothing to do with its mutation; a kill seen by
many ids at once is not in doubt. A kill not repeated on the second run is ``flaky``: not a
kill, listed with the survivors.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import replace

from .mutant import FLAKY, Mutant
from .verdict import KILLED, Verdict

THIN = 2  # a kill failing at most this many ids is graded again


def thin(mutant: Mutant) -> bool:
    return mutant.status == KILLED and len(mutant.failed) <= THIN


def confirm(
    mutants: Sequence[Mutant], regrade: Callable[[Mutant], Verdict | None], stop: threading.Event
) -> list[Mutant]:
    out: list[Mutant] = []
    for mutant in mutants:
        if not thin(mutant) or stop.is_set():
            out.append(mutant)
            continue
        again = regrade(mutant)
        if again is not None and again.status == KILLED:
            out.append(mutant)
            continue
        seen = again.status if again is not None else "no verdict"
        out.append(
            replace(
                mutant,
                status=FLAKY,
                detail=f"killed once ({', '.join(mutant.failed)}), then {seen}:\n"
                f"{mutant.detail}\n{again.detail if again else ''}".rstrip(),
            )
        )
    return out
