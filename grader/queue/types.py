"""The words a correct student may write for a field's type in schema.csv (Q2.4), by the kind of
value they name: the lab asks only that "each type is plausible for the data", so any common
vocabulary is one (English, SQL and SQLite, Python, Java, JSON Schema, TypeScript, Go, C#,
Korean). Each way is shown by a submission of the blind population or a variant (README:
"Leniency").

A type is read as its words: lower case, without a length or precision ("varchar(20)",
"DECIMAL(12,2)"), a package ("java.time.OffsetDateTime"), a nullability mark ("int?",
"Optional[int]", "not null") or a format ("string (date-time)", "string/date-time").
"""

from __future__ import annotations

import re

STRING = frozenset(
    {
        # English, JSON Schema, SQL
        "string", "str", "text", "varchar", "char", "character", "nvarchar", "nchar", "clob",
        "character varying", "utf8", "utf-8", "unicode",
        # Java, C#, Rust
        "charsequence", "&str",
        # Korean
        "문자열", "문자", "텍스트", "글자", "문자형", "문자열형",
    }
)  # fmt: skip
INTEGER = frozenset(
    {
        "integer", "int", "bigint", "smallint", "tinyint", "mediumint", "long", "short",
        "int8", "int16", "int32", "int64", "uint", "uint32", "uint64", "i32", "i64", "u32", "u64",
        "serial", "bigserial", "whole number", "counting number",
        # Korean
        "정수", "정수형", "숫자(정수)",
    }
)  # fmt: skip
NUMBER = INTEGER | frozenset(
    {
        "number", "numeric", "decimal", "float", "double", "real", "money",
        "float32", "float64", "f32", "f64", "double precision", "bigdecimal", "num",
        # Korean
        "숫자", "숫자형", "수", "실수", "실수형", "소수", "금액", "정수 또는 실수",
    }
)  # fmt: skip
TIME = frozenset(
    {
        "datetime", "timestamp", "date-time", "date", "time", "iso8601", "iso-8601", "iso 8601",
        "timestamptz", "timestamp with time zone", "timestamp without time zone",
        "instant", "zoneddatetime", "offsetdatetime", "localdatetime", "datetimeoffset",

        # Korean
        "날짜", "시간", "시각", "일시", "날짜시간", "날짜 시간", "날짜/시간", "타임스탬프", "시간값",
    }
)  # fmt: skip
PLAUSIBLE = {"string": STRING, "integer": INTEGER, "number": NUMBER, "timestamp": STRING | TIME}

_PACKAGE = re.compile(r"^(?:[a-z_][a-z0-9_]*\.)+(?=[a-z])")  # java.time., decimal., datetime.
_FORMAT = re.compile(r"^(string|text)\s*[(<:/\[]\s*(date-?time|date|time|iso-?8601)\s*[)>\]]?$")


def words(type_name: str) -> str:
    """The type as its words (see the module's docstring)."""
    text = " ".join(type_name.strip().lower().split())
    text = re.sub(r"\bnot null\b|\bnullable\b|\bnull\b", "", text).strip()
    optional = re.fullmatch(r"(?:optional|nullable)\s*[\[<(]\s*(.+?)\s*[\]>)]", text)
    if optional:
        text = optional.group(1)
    text = text.rstrip("?").strip()
    if (formatted := _FORMAT.match(text)) is not None:
        return formatted.group(2).replace("datetime", "date-time")
    text = re.sub(r"\s*\([^()]*\)$", "", text).strip()  # varchar(20), DECIMAL(12,2)
    return _PACKAGE.sub("", text)


def plausible(type_name: str, kind: str) -> bool:
    """``type_name`` names a kind of value that fits values of ``kind`` (string, integer,
    number, timestamp)."""
    return words(type_name) in PLAUSIBLE[kind]
