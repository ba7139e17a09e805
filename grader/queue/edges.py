"""The edge map of the queue lab: for every requirement id, the classes of input and the
boundaries its check judges, from the lab text and the decisions (../shared/labs/queue.md).

A behaviour id's edges are exercised by its scenario in every run: the scenario tags what it
ran with these keys and ends with ``ensure`` (a scenario that left a class out is a harness
fault, never a pass), and the checks name a failing class in Korean (``label``). Edges that
depend on what the student wrote (a state id's, and a few of a behaviour id's, such as the
encodings of the student's SQL file) are exercised by the self-tests and variants named in
their ``shown_by``.

A scenario may also declare the edges of the ids it exercises beside itself (``declare``): a
new id then touches its catalogue entry, its scenario, its check and a variant, nothing else.
The published table is derived from the whole map (``./dev.sh edges``, through
grader/queue/edgemap.py, which loads the scenarios first); tests/test_queue_edges.py keeps every
id mapped and every ``shown_by`` pointing at something.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

STATE = None  # a state id: judged on the student's saved tree


@dataclass(frozen=True)
class Edge:
    key: str
    what: str  # the class or boundary, in English (EDGES.md)
    ko: str  # how a failure message names it, in Korean
    shown_by: tuple[str, ...] = ()  # self-tests and variants that exercise it


@dataclass(frozen=True)
class Edges:
    rid: str
    scenario: str | None  # the scenario that exercises every edge in every run; None: state
    edges: tuple[Edge, ...]
    left_out: tuple[str, ...] = ()  # classes deliberately not exercised, and why


def _e(key: str, what: str, ko: str, *shown_by: str) -> Edge:
    return Edge(key, what, ko, shown_by)


# Message classes of the consumer's inboxes (fixtures/queue_messages.py tags each file).
VALID_CLASSES = (
    _e("valid", "ordinary valid messages in small orders", "보통의 정상 메시지"),
    _e("seq-across-9-10", "an order with seq 1..11 (crosses 9 → 10)", "seq 1..11 주문(9→10 자릿수 경계)"),
    _e(
        "seq-across-99-100",
        "an order with seq 98..101 (crosses 99 → 100)",
        "seq 98..101 주문(99→100 자릿수 경계)",
    ),
    _e("amount-widths", "amounts of 1 to 7 digits", "자릿수가 1~7 인 amount"),
)
FALSY_CLASSES = (
    _e("falsy-seq-0", "seq present with value 0 (valid)", "seq 가 0(값이 있음: 정상)"),
    _e("falsy-amount-0", "amount present with value 0 (valid)", "amount 가 0(값이 있음: 정상)"),
    _e("falsy-amount-0.0", "amount present with value 0.0 (valid)", "amount 가 0.0(값이 있음: 정상)"),
    _e("falsy-order_no-empty", 'order_no present as "" (valid)', 'order_no 가 ""(값이 있음: 정상)'),
)
DUPLICATE_CLASSES = (
    _e("dup-identical", "a duplicate msg_id with an identical body", "같은 msg_id·같은 내용의 중복"),
    _e("dup-different-body", "a duplicate msg_id with a different body", "같은 msg_id·다른 내용의 중복"),
    _e("dup-three-copies", "one msg_id delivered three times", "세 번 온 msg_id"),
)
PARSE_CLASSES = (
    _e("parse-truncated", "truncated JSON", "잘린 JSON"),
    _e("parse-empty-file", "an empty file", "빈 파일"),
    _e("parse-whitespace", "a file of blanks only", "공백뿐인 파일"),
    _e(
        "parse-not-utf8",
        "a byte that is not UTF-8 (0xFF) where the first colon belongs: no reading parses it",
        "UTF-8 이 아닌 바이트가 든 파일",
    ),
    _e("parse-array", "JSON that is an array (not an object: parse)", "JSON 배열(객체 아님: parse)"),
    _e("parse-string", "JSON that is a string", "JSON 문자열(객체 아님: parse)"),
    _e("parse-number", "JSON that is a number", "JSON 숫자(객체 아님: parse)"),
    _e("parse-null", "JSON null", "JSON null(객체 아님: parse)"),
    _e("parse-true", "JSON true", "JSON true(객체 아님: parse)"),
)
FIELDS = ("msg_id", "order_no", "seq", "amount")
MISSING_CLASSES = tuple(_e(f"absent-{f}", f"{f} absent", f"{f} 없음(missing-field)") for f in FIELDS) + tuple(
    _e(f"null-{f}", f"{f} null (counts as missing)", f"{f} 가 null(missing-field)") for f in FIELDS
)
POISON_CLASSES = PARSE_CLASSES + MISSING_CLASSES
EVERY_MESSAGE = VALID_CLASSES + FALSY_CLASSES + DUPLICATE_CLASSES + POISON_CLASSES

EMPTY_INBOX = _e("empty-inbox", "a run over an empty inbox exits 0", "빈 inbox 에서 실행")
# A last run's inbox: poisons with the msg_id of a message processed before.
KNOWN_ID_CLASSES = (
    _e(
        "known-id-absent",
        "a message with a processed msg_id and a required field absent (error/, not a duplicate)",
        "이미 처리한 msg_id 에 필드가 없는 메시지(중복 아님: missing-field)",
    ),
    _e(
        "known-id-null",
        "a message with a processed msg_id and a required field null (error/, not a duplicate)",
        "이미 처리한 msg_id 에 null 필드가 있는 메시지(중복 아님: missing-field)",
    ),
)
NOT_UTF8_LEFT_OUT = (
    "a message that is a valid object behind a UTF-8 BOM, or has a non-UTF-8 byte inside a "
    "string: whether it parses depends on the reader (utf-8-sig, errors=replace), so neither "
    "is sent; the non-UTF-8 byte that is sent breaks the JSON under every reading"
)

MAP: list[Edges] = [
    Edges(
        "Q1.1",
        STATE,
        (
            _e("all-present", "inbox, processing, done, error present", "네 디렉터리", "variant reference"),
            _e(
                "one-missing",
                "any one of the four missing (each named)",
                "디렉터리 하나 없음",
                "tests/test_queue_checks.py::test_directories_missing_or_not_directories",
            ),
            _e(
                "not-a-directory",
                "a regular file where a directory belongs",
                "디렉터리 자리에 파일",
                "tests/test_queue_checks.py::test_directories_missing_or_not_directories",
            ),
            _e(
                "symlinked",
                "a directory reached through a symlink counts",
                "심볼릭 링크로 된 디렉터리",
                "tests/test_queue_checks.py::test_directories_missing_or_not_directories",
            ),
        ),
    ),
    Edges(
        "Q1.2",
        STATE,
        (
            _e("exact", "the fixture's 20 names across the four dirs", "픽스처 20개", "variant reference"),
            _e(
                "lost",
                "a fixture file in none of the dirs",
                "없어진 파일",
                "tests/test_queue_checks.py::test_fixture_copy_lost_invented_twice",
            ),
            _e(
                "invented",
                "a file that is not a fixture file",
                "픽스처에 없는 파일",
                "tests/test_queue_checks.py::test_fixture_copy_lost_invented_twice",
            ),
            _e(
                "twice",
                "one name in two dirs",
                "두 디렉터리에 있는 파일",
                "tests/test_queue_checks.py::test_fixture_copy_lost_invented_twice",
            ),
            _e(
                "hidden-ignored",
                "hidden files (.DS_Store, editor swap files) are not messages: ignored",
                "숨김 파일",
                "tests/test_queue_checks.py::test_fixture_copy_lost_invented_twice",
            ),
            _e(
                "processing-subfolder",
                "a file in a consumer's own subfolder of processing/ counts as in processing/",
                "processing/ 의 하위 폴더",
                "tests/test_queue_checks.py::test_fixture_copy_lost_invented_twice",
            ),
            _e(
                "special-entry",
                "a FIFO, socket or device in a queue dir is named, never opened",
                "특수 파일",
                "tests/test_queue_blame.py::test_special_files_in_the_queue_dirs",
            ),
        ),
    ),
    Edges(
        "Q2.1",
        STATE,
        (
            _e("exact", "header exactly field,type,role", "정확한 첫 줄", "variant reference"),
            _e(
                "encodings",
                "UTF-8 with or without BOM, LF or CRLF, with or without a final newline",
                "BOM·CRLF",
                "variant or_ignore_surrogate_key_writes_own_files",
                "tests/test_queue_checks.py::test_schema_csv_tolerant_reading",
            ),
            _e(
                "quoted-or-spaced",
                'quoted header cells ("field") and blanks around cells are accepted',
                "따옴표·공백",
                "tests/test_queue_checks.py::test_schema_csv_tolerant_reading",
            ),
            _e(
                "wrong-header",
                "another header (order, names, missing) fails",
                "다른 첫 줄",
                "tests/test_queue_checks.py::test_schema_csv_wrong",
            ),
        ),
    ),
    Edges(
        "Q2.2",
        STATE,
        (
            _e("exact", "every field of the valid messages, nothing else", "모든 필드", "variant reference"),
            _e(
                "required-only",
                "only the four required fields",
                "필수 필드만",
                "variant schema_required_fields_only",
            ),
            _e(
                "extra-field",
                "a field no message has",
                "메시지에 없는 필드",
                "tests/test_queue_checks.py::test_schema_csv_wrong",
            ),
            _e(
                "blank-lines",
                "blank lines and a missing final newline are ignored",
                "빈 줄",
                "tests/test_queue_checks.py::test_schema_csv_tolerant_reading",
            ),
        ),
    ),
    Edges(
        "Q2.3",
        STATE,
        (
            _e("exact", "msg_id idempotency-key, seq sequence", "역할", "variant reference"),
            _e(
                "role-elsewhere",
                "a role also on another field, or on the wrong field",
                "다른 필드의 역할",
                "tests/test_queue_checks.py::test_schema_csv_wrong",
            ),
            _e(
                "role-case",
                "role names in another letter case are accepted",
                "대소문자",
                "tests/test_queue_checks.py::test_schema_csv_tolerant_reading",
            ),
        ),
    ),
    Edges(
        "Q2.4",
        STATE,
        (
            _e(
                "synonyms",
                "common synonyms (text, varchar(20), int, decimal, timestamp ...)",
                "같은 뜻의 타입",
                "variant integrity_error_unique_index_by_hand",
                "variant or_ignore_surrogate_key_writes_own_files",
            ),
            _e(
                "wrong-kind",
                "seq as string, amount as text, ids as integer",
                "값과 맞지 않는 타입",
                "tests/test_queue_checks.py::test_schema_csv_wrong",
            ),
        ),
    ),
    Edges(
        "Q3.1",
        STATE,
        (
            _e("primary-key", "msg_id TEXT PRIMARY KEY", "PRIMARY KEY", "variant reference"),
            _e(
                "table-level-key",
                "PRIMARY KEY (msg_id) as a table constraint",
                "테이블 제약",
                "variant begin_immediate_changes_appends_files",
            ),
            _e(
                "unique-index",
                "a separate CREATE UNIQUE INDEX on msg_id",
                "UNIQUE INDEX",
                "variant integrity_error_unique_index_by_hand",
            ),
            _e(
                "surrogate-key",
                "id INTEGER PRIMARY KEY with msg_id UNIQUE",
                "대리 키 + UNIQUE",
                "variant or_ignore_surrogate_key_writes_own_files",
            ),
            _e("no-constraint", "no constraint on msg_id", "제약 없음", "variant select_then_insert"),
            _e(
                "composite-key",
                "a key over msg_id and another column does not count",
                "여러 컬럼 묶음 키",
                "tests/test_queue_checks.py::test_ledger_schemas",
            ),
            _e(
                "name-case",
                "table and column names in another letter case (SQLite ignores case)",
                "이름의 대소문자",
                "tests/test_queue_checks.py::test_ledger_schemas",
            ),
            _e(
                "missing-column",
                "a lab column missing",
                "없는 컬럼",
                "tests/test_queue_checks.py::test_ledger_schemas",
            ),
            _e(
                "not-sqlite",
                "ledger.db that is not SQLite: a FAIL saying so, not a grader error",
                "SQLite 가 아닌 ledger.db",
                "tests/test_queue_blame.py::test_ledger_that_is_not_sqlite",
            ),
            _e(
                "special-or-unreadable",
                "ledger.db a FIFO, a directory, or unreadable: a FAIL naming it",
                "특수 파일·읽을 수 없는 ledger.db",
                "tests/test_queue_blame.py::test_special_files_as_the_students_files",
                "tests/test_queue_blame.py::test_unreadable_files_without_root",
            ),
            _e(
                "locked",
                "ledger.db locked by a student's process: judged from the saved copy",
                "잠긴 ledger.db",
                "tests/test_queue_blame.py::test_ledger_locked_by_the_students_process",
            ),
        ),
    ),
    Edges(
        "Q3.2",
        STATE,
        (
            _e("empty", "processing/ empty", "빈 processing/", "variant reference"),
            _e("file-left", "a file left", "남은 파일", "variant duplicates_stay_in_processing"),
            _e(
                "subfolder",
                "a file left in a subfolder counts; an empty subfolder does not",
                "하위 폴더",
                "tests/test_queue_checks.py::test_processing_left_overs",
            ),
        ),
    ),
    Edges(
        "Q3.3",
        "fresh_run",
        (EMPTY_INBOX, *EVERY_MESSAGE, *KNOWN_ID_CLASSES),
        left_out=(
            NOT_UTF8_LEFT_OUT,
            "files not ending in .json: the lab says every inbox file is consumed, step 1 copies "
            "only .json, so whether a consumer skips other names is left open",
            'msg_id "" and values of false: no required field is a boolean, and an empty '
            "idempotency key is not a message the lab describes; the falsy class is exercised "
            'with 0, 0.0 and "" where the field allows it',
        ),
    ),
    Edges("Q3.4", "fresh_run", EVERY_MESSAGE),
    Edges("Q3.5", "fresh_run", VALID_CLASSES + FALSY_CLASSES + DUPLICATE_CLASSES),
    Edges(
        "Q3.6",
        "fresh_run",
        (
            _e(
                "rerun-state-present",
                "half of the ids (every copy) again under new names, with done/, error/ and the "
                "ledger as the first run left them",
                "앞선 실행의 상태가 남은 채 다시 실행",
            ),
            _e(
                "again-same-name",
                "two ordinary files again under the names done/ holds them by (a student re-copying "
                "the fixture inbox): exit 0, neither left in inbox/ or processing/ nor put in "
                "error/ (overwriting the identical file in done/ or any other way is the student's)",
                "done/ 에 있는 것과 같은 이름으로 다시 온 파일",
            ),
        ),
    ),
    Edges(
        "Q3.7",
        "two_consumers",
        (
            _e(
                "race",
                "each consumer holds one copy of the same msg_id, both waiting at the lock, "
                "released together",
                "같은 msg_id 를 하나씩 쥔 두 소비자",
            ),
            _e(
                "crowd",
                "a few hundred files, both consumers released together at the lock (lockstep)",
                "수백 개 파일에 동시에 돈 두 소비자",
            ),
            _e(
                "crowd-state-present",
                "the crowd meets a queue that has run before: an earlier run's rows in the ledger "
                "and its files in done/, which must all stay (whatever order the two consumers "
                "take the lock in, a consumer that clears the ledger when it starts loses them)",
                "앞선 실행의 행이 있는 원장에서 시작",
            ),
            _e("dup-identical", "identical duplicates in the crowd", "같은 내용의 중복"),
            _e("dup-different-body", "different-body duplicates in the crowd", "다른 내용의 중복"),
            _e("parse-truncated", "a parse failure in the crowd", "파싱 실패"),
            _e("absent-amount", "a missing field in the crowd", "필드 누락"),
        ),
    ),
    Edges("Q3.8", "fresh_run", POISON_CLASSES),
    Edges(
        "Q4.1",
        STATE,
        (
            _e("exact", "done 18, error 2", "done 18·error 2", "variant reference"),
            _e("wrong", "other counts", "다른 개수", "variant poison_back_to_inbox"),
            _e(
                "hidden-ignored",
                "hidden files and subfolders are not counted",
                "숨김 파일·하위 폴더",
                "tests/test_queue_checks.py::test_done_and_error_counts",
            ),
        ),
    ),
    Edges(
        "Q4.2",
        STATE,
        (
            _e("exact", "15 rows, the unique msg_ids", "고유 msg_id 15건", "variant reference"),
            _e(
                "wrong-rows",
                "a row missing or extra",
                "빠지거나 남는 행",
                "tests/test_queue_checks.py::test_ledger_rows",
            ),
            _e(
                "not-sqlite",
                "ledger.db that is not SQLite: a FAIL saying so",
                "SQLite 가 아닌 ledger.db",
                "tests/test_queue_blame.py::test_ledger_that_is_not_sqlite",
            ),
        ),
    ),
    Edges(
        "Q4.3",
        STATE,
        (
            _e("exact", "the 3 duplicated msg_ids ascending", "중복 msg_id 3건", "variant reference"),
            _e(
                "encodings",
                "BOM, CRLF, no final newline, blanks around ids, blank lines",
                "BOM·CRLF·빈 줄",
                "variant reports_with_bom_and_crlf",
                "tests/test_queue_checks.py::test_dup_txt",
            ),
            _e("descending", "ids in another order", "내림차순", "variant dup_txt_descending"),
            _e("file-names", "file names instead of msg_ids", "파일 이름", "variant dup_txt_file_names"),
            _e("none-noticed", "no duplicate noticed", "비어 있음", "variant insert_or_replace"),
            _e(
                "not-text",
                "not UTF-8, a FIFO or a directory: a FAIL naming it",
                "텍스트가 아님",
                "tests/test_queue_blame.py::test_special_files_as_the_students_files",
                "tests/test_queue_checks.py::test_dup_txt",
            ),
        ),
    ),
    Edges(
        "Q5.1",
        STATE,
        (
            _e(
                "exact",
                "header file,reason and one right row per error file",
                "정확한 표",
                "variant reference",
            ),
            _e(
                "encodings",
                "BOM, CRLF, quoted cells, blanks around cells",
                "BOM·CRLF·따옴표",
                "variant reports_with_bom_and_crlf",
                "tests/test_queue_checks.py::test_error_csv",
            ),
            _e(
                "paths",
                "error/NAME or an absolute path in the file column: its basename counts",
                "경로가 붙은 파일 이름",
                "variant integrity_error_unique_index_by_hand",
                "tests/test_queue_checks.py::test_error_csv",
            ),
            _e("swapped", "reasons swapped", "사유가 바뀜", "variant error_reasons_swapped"),
            _e(
                "rows",
                "a row missing, extra, or twice",
                "빠지거나 남거나 두 번 있는 줄",
                "tests/test_queue_checks.py::test_error_csv",
            ),
        ),
    ),
    Edges(
        "Q6.1",
        "order_checks",
        (
            _e("own-ledger", "the student's own ledger (a copy)", "학생의 ledger.db"),
            _e(
                "sql-encodings",
                "the SQL file in UTF-8 with or without BOM, LF or CRLF, comments, no final semicolon",
                "BOM·CRLF 인 SQL",
                "variant reports_with_bom_and_crlf",
                "tests/test_queue_checks.py::test_sql_statements",
            ),
            _e(
                "dot-commands",
                "sqlite3 shell dot-commands (.headers on, .mode) are skipped",
                ".명령",
                "variant or_ignore_surrogate_key_writes_own_files",
            ),
            _e(
                "unusable-ledger",
                "a ledger.db that cannot be read, or has no processed table: a FAIL saying why",
                "쓸 수 없는 ledger.db",
                "tests/test_queue_blame.py::test_ledger_that_is_not_sqlite",
            ),
            _e(
                "unreadable-sql",
                "order-check.sql not UTF-8, or not a regular file: a FAIL saying so",
                "읽을 수 없는 SQL",
                "tests/test_queue_blame.py::test_special_files_as_the_students_files",
            ),
        ),
    ),
    Edges(
        "Q6.2",
        "order_checks",
        (
            _e("dup-first", "the first seq of an order repeated", "첫 seq 가 중복"),
            _e("dup-middle", "a seq in the middle repeated", "중간 seq 가 중복"),
            _e("dup-last", "the last seq repeated", "마지막 seq 가 중복"),
            _e("dup-at-10", "seq 10 repeated in an order 1..11", "seq 10 이 중복(자릿수 경계)"),
            _e("dup-at-100", "seq 100 repeated in an order 1..101", "seq 100 이 중복(자릿수 경계)"),
            _e("dup-one-element", "an order of one seq, repeated", "seq 하나뿐인 주문의 중복"),
            _e("dup-three-times", "a seq three times", "세 번 나온 seq"),
            _e(
                "dup-and-hole",
                "a repeat and a hole in one order, first and last seq kept (rows = MAX-MIN+1)",
                "한 주문에 중복과 구멍이 함께(행 수 = MAX-MIN+1)",
            ),
            _e("scrambled", "rows stored neither ascending nor descending", "순서가 섞인 행"),
        ),
    ),
    Edges(
        "Q6.3",
        "order_checks",
        (
            _e("hole-1-2-4", "an order 1,2,4 (hole of width 1)", "1,2,4(구멍 폭 1)"),
            _e("hole-1-2-6", "an order 1,2,6 (hole of width 3)", "1,2,6(구멍 폭 3)"),
            _e("hole-1-3-5-9", "an order 1,3,5,9 (three holes)", "1,3,5,9(구멍 여러 개)"),
            _e("hole-width-2", "a hole of width 2 in a long order", "구멍 폭 2"),
            _e("hole-width-5", "a hole of width 5 in a long order", "구멍 폭 5"),
            _e("hole-after-first", "the second seq missing", "두 번째 seq 가 빠짐"),
            _e("hole-before-last", "the second-to-last seq missing", "끝에서 두 번째 seq 가 빠짐"),
            _e("hole-at-10", "seq 10 missing (9 → 11)", "seq 10 이 빠짐(9→11)"),
            _e("hole-at-100", "seq 100 missing (99 → 101)", "seq 100 이 빠짐(99→101)"),
            _e("hole-two-element", "an order 1,3", "1,3(seq 두 개)"),
            _e("hole-first-order", "the hole in the order with the smallest order_no", "첫 주문의 구멍"),
            _e("hole-last-order", "the hole in the order with the largest order_no", "마지막 주문의 구멍"),
            _e(
                "hole-and-dup",
                "seq 10 missing and 9 repeated in an order 1..11 (rows = MAX-MIN+1)",
                "seq 10 이 빠지고 9 가 중복(행 수 = MAX-MIN+1)",
            ),
            _e("scrambled", "rows stored neither ascending nor descending", "순서가 섞인 행"),
        ),
        left_out=(
            "holes before the first seq (an order starting above 1): not required by the "
            "decisions, so no ledger has one, clean or faulty",
        ),
    ),
    Edges(
        "Q6.4",
        "order_checks",
        (
            _e(
                "clean-widths",
                "orders of 1, 2, 9, 10, 11 and 101 seqs plus small ones, every order from 1",
                "길이 1·2·9·10·11·101 인 주문",
            ),
            _e("clean-empty", "an empty ledger", "빈 장부"),
            _e("clean-one-row", "a ledger of one row", "한 행뿐인 장부"),
            _e("scrambled", "rows stored neither ascending nor descending", "순서가 섞인 행"),
        ),
    ),
    Edges(
        "Q6.5",
        STATE,
        (
            _e("ok", "first line OK", "OK", "variant reference"),
            _e(
                "encodings",
                "BOM, CRLF, blanks around OK",
                "BOM·CRLF",
                "variant reports_with_bom_and_crlf",
                "tests/test_queue_checks.py::test_order_result",
            ),
            _e(
                "what-follows-ok",
                "anything after OK (later lines, or after OK and a space on its line) is free",
                "OK 뒤의 내용",
                "tests/test_queue_checks.py::test_order_result",
            ),
            _e(
                "not-ok",
                "rows, an error, an empty file, or a word such as OKAY",
                "OK 가 아님",
                "variant order_check_seq_as_text",
                "tests/test_queue_checks.py::test_order_result",
            ),
        ),
    ),
    Edges(
        "Q7.1",
        "lag_runs",
        (
            _e("count-0", "each directory empty", "비어 있는 디렉터리"),
            _e("count-1", "one file in a directory", "파일 하나"),
            _e(
                "count-widths",
                "counts of 9, 10, 11, 99, 100, 256 (inbox), 9, 10, 11 (the others)",
                "자릿수가 다른 건수",
            ),
            _e(
                "subdirectory",
                "a subdirectory (with files) in inbox, processing, error: not counted",
                "하위 폴더",
            ),
            _e("dotfile", "a hidden regular file in inbox: counted or not, both accepted", "숨김 파일"),
            _e("done-ignored", "files in done/ are not reported", "done/ 의 파일"),
            _e("not-root-q", "a queue dir of the grader's, not /root/q", "채점기가 만든 큐 디렉터리"),
        ),
        left_out=(
            "names with a newline, and queue dirs whose path has blanks: counting them right "
            "needs more than the lab teaches (ls | wc -l and find | wc -l both miscount them)",
        ),
    ),
    Edges(
        "Q7.2",
        "lag_runs",
        (
            _e("threshold-equal", "inbox equal to the threshold: exit 0", "임계치와 같음"),
            _e("threshold-below", "inbox one below: exit 0", "임계치보다 하나 적음"),
            _e("threshold-above", "inbox one above: non-zero", "임계치보다 하나 많음"),
            _e("zero", "threshold 0 with inbox 0 and with inbox 1", "임계치 0"),
            _e("across-9-10", "inbox 10 over threshold 9, inbox 9 under threshold 10", "9↔10 자릿수 경계"),
            _e(
                "across-99-100",
                "inbox 100 over threshold 99, inbox 99 under threshold 100",
                "99↔100 자릿수 경계",
            ),
            _e(
                "over-by-256",
                "inbox 256 over threshold 0: an exit status is one byte, so exit $inbox (or the "
                "excess) reads as 0",
                "256개로 임계치 0 초과(종료 코드는 0~255)",
            ),
        ),
    ),
    Edges(
        "Q8.1",
        "replay_runs",
        (
            _e("plain-name", "an ordinary name in error/", "보통 이름"),
            _e("name-with-space", "a name with a space, present in error/", "공백이 든 이름"),
            _e("empty-file", "an empty file (the empty poison message): bytes unchanged", "빈 파일"),
            _e(
                "crlf-file",
                "a file with CRLF line ends: bytes unchanged (no text-mode copy)",
                "CRLF 줄끝 파일",
            ),
            _e(
                "not-utf8-file",
                "a file that is not UTF-8 (a poison message): bytes unchanged",
                "UTF-8 이 아닌 파일",
            ),
        ),
    ),
    Edges(
        "Q8.2",
        "replay_runs",
        (
            _e("in-done-only", "a name in done/ but not in error/", "done/ 에만 있는 이름"),
            _e("in-inbox-only", "a name in inbox/ but not in error/", "inbox/ 에만 있는 이름"),
            _e("in-processing-only", "a name in processing/ only", "processing/ 에만 있는 이름"),
            _e("nowhere", "a name nowhere in the queue", "어디에도 없는 이름"),
        ),
    ),
    Edges(
        "Q8.3",
        "replay_runs",
        (
            _e("dotdot-path", "../done/NAME", "../done/ 경로"),
            _e("absolute-outside", "an absolute path outside the queue", "큐 밖의 절대 경로"),
            _e("absolute-done", "an absolute path of a file in done/", "done/ 파일의 절대 경로"),
            _e("empty", "an empty name", "빈 이름"),
            _e("dot", '"." and ".."', '"." 과 ".."'),
            _e("directory", "a directory inside error/", "error/ 안의 디렉터리"),
            _e("glob", "a glob (*)", "글롭(*)"),
            _e("space-not-there", "a name with spaces that is not there", "없는, 공백이 든 이름"),
            _e("two-names", "two names in error/ joined by a space", "error/ 의 두 이름을 공백으로 이은 것"),
        ),
        left_out=(
            "a path whose last part names a file in error/ (../error/NAME, /root/q/error/NAME): "
            "a script that takes the basename moves the right file, so it is not judged",
        ),
    ),
]

BY_ID = {entry.rid: entry for entry in MAP}


def declare(*entries: Edges) -> None:
    """Add the edges of ids a scenario exercises, declared beside it (each id once)."""
    for entry in entries:
        if entry.rid in BY_ID:
            raise ValueError(f"{entry.rid} has an edge map already")
        MAP.append(entry)
        BY_ID[entry.rid] = entry


MESSAGE_LABELS = {edge.key: edge.ko for edge in (*EVERY_MESSAGE, *KNOWN_ID_CLASSES)} | {"race": "경주용 사본"}


def message_label(case: str) -> str:
    """How a failure message names a message's class (fixtures' QueueFile.case)."""
    return MESSAGE_LABELS.get(case, case)


def label(rid: str, key: str) -> str:
    """How a failure message names the class ``key`` of ``rid``."""
    for edge in BY_ID[rid].edges:
        if edge.key == key:
            return edge.ko
    raise KeyError(f"{rid} has no edge {key!r}")


def scenario_keys(rid: str) -> frozenset[str]:
    """The classes ``rid``'s scenario runs itself (the others depend on what the student
    wrote and are exercised by the self-tests in their ``shown_by``)."""
    return frozenset(edge.key for edge in BY_ID[rid].edges if not edge.shown_by)


def ensure(scenario: str, covered: Iterable[str]) -> None:
    """Every edge of every id that ``scenario`` exercises was run; otherwise the scenario is
    broken (a harness fault: an error, never a pass)."""
    ran = set(covered)
    left = {e.rid: sorted(scenario_keys(e.rid) - ran) for e in MAP if e.scenario == scenario}
    left = {rid: missing for rid, missing in left.items() if missing}
    if left:
        raise RuntimeError(f"scenario {scenario} left edges out: {left}")


def render(ids: Iterable[str]) -> str:
    """The published table, in the order of ``ids`` (the catalogue's)."""
    out = [
        "# Queue lab: the edge map",
        "",
        "Generated from the edge map (`grader/queue/edges.py` and the edges the scenarios declare)",
        "by `./dev.sh edges`.",
        "",
        "For every requirement id, the classes of input and the boundaries its check judges.",
        "A behaviour id's scenario runs every class in every run (it fails as a harness fault",
        "otherwise); the random seed varies only the values inside a class. A state id is judged",
        "on the student's saved tree; its classes are exercised by the self-tests and variants",
        "named beside them.",
        "",
    ]
    for entry in (BY_ID[rid] for rid in ids):
        source = f"scenario `{entry.scenario}`" if entry.scenario else "state (the saved tree)"
        out += [f"## {entry.rid} — {source}", ""]
        for edge in entry.edges:
            by = f" — {', '.join(edge.shown_by)}" if edge.shown_by else ""
            out.append(f"- `{edge.key}`: {edge.what}{by}")
        for why in entry.left_out:
            out.append(f"- not exercised: {why}")
        out.append("")
    return "\n".join(out)
