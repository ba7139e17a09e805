"""The labs this grader knows: every package of grader/ whose ``__init__`` exports ``LAB``.

Adding a lab is adding such a package (its catalogue, scenarios and checks); nothing here or
anywhere outside it names it. Importing a lab's package loads its catalogue only.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from grader.catalogue import Catalogue, Lab


def _discover() -> list[Lab]:
    found = []
    for info in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"grader.{info.name}")
        lab = getattr(module, "LAB", None)
        if isinstance(lab, Lab):
            if lab.package != module.__name__:
                raise ValueError(f"{module.__name__} declares lab {lab.name!r}: name the package after it")
            found.append(lab)
    return found


CATALOGUE = Catalogue(_discover())
LABS = tuple(CATALOGUE.labs.values())
LAB_NAMES = CATALOGUE.names
