"""Our own mutation operators for the solutions that are not Python: SQL, shell, CSV."""

from __future__ import annotations

from pathlib import PurePath

from . import csvfile, shell, sql
from .common import Operator, TextMutant, mutants

BY_SUFFIX: dict[str, tuple[Operator, ...]] = {
    ".sql": sql.OPERATORS,
    ".sh": shell.OPERATORS,
    ".csv": csvfile.OPERATORS,
}


def mutants_of(name: str, text: str) -> list[TextMutant]:
    """Every distinct mutant of the file ``name`` whose content is ``text``."""
    return mutants(text, BY_SUFFIX[PurePath(name).suffix])


__all__ = ["TextMutant", "mutants_of"]
