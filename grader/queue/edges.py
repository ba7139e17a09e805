"""The queue lab's partition map: the inputs its checks judge, the partitions of each input's
domain (from the lab text and the decisions, ../shared/labs/queue.md), and which id judges which
partition in which scenario (grader/machinery/partitions.py: the model both labs share).

A behaviour id's partitions are produced by its scenario in every run: the scenario tags what it
ran with their keys and ends with ``ensure`` (a scenario that left a partition out is a harness
fault, never a pass), and the checks name a failing partition in Korean (``label``). Partitions
that depend on what the student wrote (a state id's, and a few of a behaviour id's, such as the
encodings of the student's SQL file) are produced by the self-tests and variants named in their
``shown_by``.

A scenario may also judge the partitions of the ids it exercises beside itself
(``MAP.judge``): a new id then touches its catalogue entry, its scenario, its check and a
variant, nothing else. The published table is derived from the whole map (``./dev.sh edges``,
through grader/queue/edgemap.py, which loads the scenarios first); tests/test_queue_edges.py
keeps every id mapped and every ``shown_by`` pointing at something.
"""

from __future__ import annotations

from collections.abc import Iterable

from grader.machinery.partitions import STATE, Input, Partition, PartitionMap

MAP = PartitionMap()

# The inputs ------------------------------------------------------------------------------------
MESSAGE = MAP.input(
    "a message file in inbox/",
    """Its bytes: a JSON object with msg_id, order_no, seq and amount (the four required
    fields, each present and not null), possibly other fields; or anything else: bytes that do
    not parse (truncated, empty, blanks, not UTF-8), JSON that is not an object, an object
    with a required field absent or null (missing-field). A valid message's msg_id may have
    been seen before (a duplicate, same or different body), or every other field may equal
    another message's under a new msg_id (no duplicate: the key is msg_id). Values are any the field allows:
    seq from 0 across every digit boundary, amount 0, 0.0 and of any width, order_no "".""",
)
INBOX = MAP.input(
    "inbox/ and the queue's state as a run of consume.py finds them",
    """Empty or holding any mix of message files, named with blanks or not; done/, error/ and
    the ledger holding an earlier run's work or not; a file arriving again under a name done/
    already holds.""",
)
OTHER_CONSUMER = MAP.input(
    "another consume.py at the same queue and ledger",
    """None, or one started at the same moment over the same files (both may reach any file
    and the same msg_id at once), with or without an earlier run's rows in the ledger.""",
)
QUEUE_DIRS = MAP.input(
    "the queue folders as the student left them (q/inbox, processing, done, error)",
    """Each a directory (or a link to one), missing, or a file; holding the fixture files,
    hidden files, a consumer's subfolders, special files.""",
)
SCHEMA = MAP.input(
    "schema.csv",
    """A CSV file field,type,role: UTF-8 with or without a BOM, LF or CRLF, quoted or spaced
    cells, blank lines; type words of SQL, Python, JSON or plain English, in any case.""",
)
LEDGER = MAP.input(
    "ledger.db as the student left it",
    """An SQLite file (any journal mode) whose table processed keys msg_id by a PRIMARY KEY or
    a UNIQUE index, with extra columns, tables, views or indexes; or not SQLite, a special
    file, locked by a student's process.""",
)
DUP_TXT = MAP.input(
    "dup.txt",
    """msg_ids one a line, ascending; UTF-8 with or without a BOM, LF or CRLF, blanks and blank
    lines around them; or not text.""",
)
ERROR_CSV = MAP.input(
    "error.csv",
    """A CSV file,reason: one row per file in error/ (its name, or a path ending in it),
    reason parse or missing-field; any CSV dialect the csv module reads.""",
)
ORDER_SQL = MAP.input(
    "order-check.sql",
    """SQL for SQLite: one or more statements, comments, sqlite3 dot-commands, UTF-8 with or
    without a BOM, LF or CRLF, a final semicolon or not; or not text.""",
)
CHECKED_LEDGER = MAP.input(
    "a ledger order-check.sql runs on",
    """The student's own, or the grader's (the student's schema, its extra required columns
    filled): clean, or with repeats and holes of any width, at any place of an order, across
    digit boundaries, both in one order; rows stored in any order.""",
)
ORDER_RESULT = MAP.input(
    "order-result.txt",
    """OK on its first line (BOM, CRLF, blanks around it), anything after it; or rows, an
    error, nothing.""",
)
LAG_FOLDER = MAP.input(
    "a queue folder given to lag.sh",
    """Any path (not only /root/q); each of inbox, processing, error holding 0 to a few
    hundred regular files (names with blanks among them), subfolders, hidden files; done/
    holding anything.""",
)
LAG_THRESHOLD = MAP.input(
    "lag.sh's threshold against inbox's count",
    """A non-negative integer; inbox's count below, equal to or above it, across digit
    boundaries, and above it by 256 or more (an exit status is one byte).""",
)
REPLAY_NAME = MAP.input(
    "replay.sh's name argument",
    """The name of a file in error/ (with blanks), or anything else: a name elsewhere in the
    queue or nowhere, a path (relative, absolute, with ..), empty, . and .., a directory in
    error/, a glob, two names.""",
)
REPLAY_FILE = MAP.input(
    "the file replay.sh moves",
    """Any bytes: empty, CRLF, not UTF-8 (the poison messages error/ holds).""",
)


def _e(input: Input, key: str, what: str, shown: str, *shown_by: str) -> Partition:
    return Partition(input, key, what, shown, shown_by)


def _judge(
    rid: str, scenario: str | None, partitions: tuple[Partition, ...], left_out: tuple[str, ...] = ()
) -> None:
    MAP.judge(rid, scenario, *partitions, left_out=left_out)


# Message classes of the consumer's inboxes (fixtures/queue_messages.py tags each file).
VALID_CLASSES = (
    _e(MESSAGE, "valid", "ordinary valid messages in small orders", "보통의 정상 메시지"),
    _e(
        MESSAGE,
        "seq-across-9-10",
        "an order with seq 1..11 (crosses 9 → 10)",
        "seq 1..11 주문(9→10 자릿수 경계)",
    ),
    _e(
        MESSAGE,
        "seq-across-99-100",
        "an order with seq 98..101 (crosses 99 → 100)",
        "seq 98..101 주문(99→100 자릿수 경계)",
    ),
    _e(MESSAGE, "amount-widths", "amounts of 1 to 7 digits", "자릿수가 1~7 인 amount"),
)
FALSY_CLASSES = (
    _e(MESSAGE, "falsy-seq-0", "seq present with value 0 (valid)", "seq 가 0(값이 있음: 정상)"),
    _e(MESSAGE, "falsy-amount-0", "amount present with value 0 (valid)", "amount 가 0(값이 있음: 정상)"),
    _e(
        MESSAGE, "falsy-amount-0.0", "amount present with value 0.0 (valid)", "amount 가 0.0(값이 있음: 정상)"
    ),
    _e(MESSAGE, "falsy-order_no-empty", 'order_no present as "" (valid)', 'order_no 가 ""(값이 있음: 정상)'),
)
DUPLICATE_CLASSES = (
    _e(MESSAGE, "dup-identical", "a duplicate msg_id with an identical body", "같은 msg_id·같은 내용의 중복"),
    _e(
        MESSAGE,
        "dup-different-body",
        "a duplicate msg_id with a different body",
        "같은 msg_id·다른 내용의 중복",
    ),
    _e(MESSAGE, "dup-three-copies", "one msg_id delivered three times", "세 번 온 msg_id"),
)
PARSE_CLASSES = (
    _e(MESSAGE, "parse-truncated", "truncated JSON", "잘린 JSON"),
    _e(MESSAGE, "parse-empty-file", "an empty file", "빈 파일"),
    _e(MESSAGE, "parse-whitespace", "a file of blanks only", "공백뿐인 파일"),
    _e(
        MESSAGE,
        "parse-not-utf8",
        "a byte that is not UTF-8 (0xFF) where the first colon belongs: no reading parses it",
        "UTF-8 이 아닌 바이트가 든 파일",
    ),
    _e(MESSAGE, "parse-array", "JSON that is an array (not an object: parse)", "JSON 배열(객체 아님: parse)"),
    _e(MESSAGE, "parse-string", "JSON that is a string", "JSON 문자열(객체 아님: parse)"),
    _e(MESSAGE, "parse-number", "JSON that is a number", "JSON 숫자(객체 아님: parse)"),
    _e(MESSAGE, "parse-null", "JSON null", "JSON null(객체 아님: parse)"),
    _e(MESSAGE, "parse-true", "JSON true", "JSON true(객체 아님: parse)"),
)
FIELDS = ("msg_id", "order_no", "seq", "amount")
MISSING_CLASSES = tuple(
    _e(MESSAGE, f"absent-{f}", f"{f} absent", f"{f} 없음(missing-field)") for f in FIELDS
) + tuple(
    _e(MESSAGE, f"null-{f}", f"{f} null (counts as missing)", f"{f} 가 null(missing-field)") for f in FIELDS
)
OPTIONAL_CLASSES = (
    _e(
        MESSAGE,
        "optional-absent",
        "a valid message holding the four required fields only (currency, created_at absent)",
        "필수 필드 네 개만 있는 정상 메시지",
    ),
    _e(
        MESSAGE,
        "optional-null",
        "a valid message whose fields the lab does not require are null",
        "필수가 아닌 필드가 null 인 정상 메시지",
    ),
    _e(
        MESSAGE,
        "extra-fields",
        "a valid message with fields no fixture has (a string, a list, an object)",
        "픽스처에 없는 필드가 더 있는 정상 메시지",
    ),
)
# Two anomalies in one msg_id (fixtures/queue_messages.py ``_anomaly_pairs``).
SAME_ID_CLASSES = (
    _e(
        MESSAGE,
        "same-id-poison-first",
        "a poison (a required field absent) named before a valid message with its msg_id: "
        "error/, then the valid one processed (no duplicate)",
        "같은 msg_id 의 필드 누락 메시지가 먼저 온 정상 메시지(중복 아님)",
    ),
    _e(
        MESSAGE,
        "same-id-valid-first",
        "a valid message named before a poison with its msg_id: processed, then the poison to error/",
        "정상 메시지 뒤에 같은 msg_id 의 필드 누락 메시지",
    ),
)
POISON_TWICE = _e(
    MESSAGE,
    "poison-twice",
    "two poisons with one msg_id (a required field absent in each): both to error/, the second no duplicate",
    "같은 msg_id 의 필드 누락 메시지 두 개(둘 다 error/)",
)
DUPLICATE_PAIRS = (
    _e(MESSAGE, "dup-of-falsy", "a duplicate of a message with seq 0", "seq 가 0 인 메시지의 중복"),
    _e(
        MESSAGE,
        "dup-of-optional-absent",
        "a duplicate, carrying currency, of a message holding the required fields only",
        "필수 필드만 있던 메시지의 중복(currency 가 더 있음)",
    ),
    _e(
        MESSAGE,
        "dup-at-seq-10",
        "a duplicate of seq 10 in an order 1..11",
        "1..11 주문의 seq 10 중복(자릿수 경계)",
    ),
)
LOOKALIKE = _e(
    MESSAGE,
    "lookalike-new-id",
    "two valid messages equal in order_no, seq, amount and created_at, with two msg_ids: no "
    "duplicate, a row each (a UNIQUE on order_no and seq, or a key on the body without its "
    "msg_id, drops one; a repeated seq is order-check.sql's to find)",
    "msg_id 만 다르고 나머지가 같은 두 메시지(중복 아님)",
)
POISON_CLASSES = PARSE_CLASSES + MISSING_CLASSES + (POISON_TWICE,)
RECORDED_CLASSES = (
    VALID_CLASSES + FALSY_CLASSES + OPTIONAL_CLASSES + DUPLICATE_CLASSES + DUPLICATE_PAIRS + (LOOKALIKE,)
)
EVERY_MESSAGE = RECORDED_CLASSES + SAME_ID_CLASSES + POISON_CLASSES

EMPTY_INBOX = _e(INBOX, "empty-inbox", "a run over an empty inbox exits 0", "빈 inbox 에서 실행")
BLANK_NAMES = _e(
    INBOX,
    "blank-names",
    "a valid message and a poison whose file names hold a blank and parentheses (`… (2).json`, "
    "as a desktop names a second copy): each ends where its bytes send it",
    "이름에 공백·괄호가 든 파일",
)
# A last run's inbox: poisons with the msg_id of a message processed before.
KNOWN_ID_CLASSES = (
    _e(
        MESSAGE,
        "known-id-absent",
        "a message with a processed msg_id and a required field absent (error/, not a duplicate)",
        "이미 처리한 msg_id 에 필드가 없는 메시지(중복 아님: missing-field)",
    ),
    _e(
        MESSAGE,
        "known-id-null",
        "a message with a processed msg_id and a required field null (error/, not a duplicate)",
        "이미 처리한 msg_id 에 null 필드가 있는 메시지(중복 아님: missing-field)",
    ),
)
NOT_SQLITE = _e(
    LEDGER,
    "not-sqlite",
    "ledger.db that is not SQLite: a FAIL saying so, not a grader error",
    "SQLite 가 아닌 ledger.db",
    "tests/test_queue_blame.py::test_ledger_that_is_not_sqlite",
)
SCRAMBLED = _e(CHECKED_LEDGER, "scrambled", "rows stored neither ascending nor descending", "순서가 섞인 행")
NOT_UTF8_LEFT_OUT = (
    "a message that is a valid object behind a UTF-8 BOM, or has a non-UTF-8 byte inside a "
    "string: whether it parses depends on the reader (utf-8-sig, errors=replace), so neither "
    "is sent; the non-UTF-8 byte that is sent breaks the JSON under every reading"
)

_judge(
    "Q1.1",
    STATE,
    (
        _e(
            QUEUE_DIRS,
            "all-present",
            "inbox, processing, done, error present",
            "네 디렉터리",
            "variant reference",
        ),
        _e(
            QUEUE_DIRS,
            "one-missing",
            "any one of the four missing (each named)",
            "디렉터리 하나 없음",
            "tests/test_queue_checks.py::test_directories_missing_or_not_directories",
        ),
        _e(
            QUEUE_DIRS,
            "not-a-directory",
            "a regular file where a directory belongs",
            "디렉터리 자리에 파일",
            "tests/test_queue_checks.py::test_directories_missing_or_not_directories",
        ),
        _e(
            QUEUE_DIRS,
            "symlinked",
            "a directory reached through a symlink counts",
            "심볼릭 링크로 된 디렉터리",
            "tests/test_queue_checks.py::test_directories_missing_or_not_directories",
        ),
    ),
)
_judge(
    "Q1.2",
    STATE,
    (
        _e(
            QUEUE_DIRS,
            "fixture-set",
            "the fixture's 20 names across the four dirs",
            "픽스처 20개",
            "variant reference",
        ),
        _e(
            QUEUE_DIRS,
            "lost",
            "a fixture file in none of the dirs",
            "없어진 파일",
            "tests/test_queue_checks.py::test_fixture_copy_lost_invented_twice",
        ),
        _e(
            QUEUE_DIRS,
            "invented",
            "a file that is not a fixture file",
            "픽스처에 없는 파일",
            "tests/test_queue_checks.py::test_fixture_copy_lost_invented_twice",
        ),
        _e(
            QUEUE_DIRS,
            "twice",
            "one name in two dirs",
            "두 디렉터리에 있는 파일",
            "tests/test_queue_checks.py::test_fixture_copy_lost_invented_twice",
        ),
        _e(
            QUEUE_DIRS,
            "hidden-ignored",
            "hidden files (.DS_Store, editor swap files) are not messages: ignored",
            "숨김 파일",
            "tests/test_queue_checks.py::test_fixture_copy_lost_invented_twice",
        ),
        _e(
            QUEUE_DIRS,
            "processing-subfolder",
            "a file in a consumer's own subfolder of processing/ counts as in processing/",
            "processing/ 의 하위 폴더",
            "tests/test_queue_checks.py::test_fixture_copy_lost_invented_twice",
        ),
        _e(
            QUEUE_DIRS,
            "special-entry",
            "a FIFO, socket or device in a queue dir is named, never opened",
            "특수 파일",
            "tests/test_queue_blame.py::test_special_files_in_the_queue_dirs",
        ),
    ),
)
_judge(
    "Q2.1",
    STATE,
    (
        _e(SCHEMA, "header-exact", "header exactly field,type,role", "정확한 첫 줄", "variant reference"),
        _e(
            SCHEMA,
            "encodings",
            "UTF-8 with or without BOM, LF or CRLF, with or without a final newline",
            "BOM·CRLF",
            "variant or_ignore_surrogate_key_writes_own_files",
            "tests/test_queue_checks.py::test_schema_csv_tolerant_reading",
        ),
        _e(
            SCHEMA,
            "quoted-or-spaced",
            'quoted header cells ("field") and blanks around cells are accepted',
            "따옴표·공백",
            "tests/test_queue_checks.py::test_schema_csv_tolerant_reading",
        ),
        _e(
            SCHEMA,
            "wrong-header",
            "another header (order, names, missing) fails",
            "다른 첫 줄",
            "tests/test_queue_checks.py::test_schema_csv_wrong",
        ),
    ),
)
_judge(
    "Q2.2",
    STATE,
    (
        _e(
            SCHEMA,
            "fields-exact",
            "every field of the valid messages, nothing else",
            "모든 필드",
            "variant reference",
        ),
        _e(
            SCHEMA,
            "required-only",
            "only the four required fields",
            "필수 필드만",
            "variant schema_required_fields_only",
        ),
        _e(
            SCHEMA,
            "extra-field",
            "a field no message has",
            "메시지에 없는 필드",
            "tests/test_queue_checks.py::test_schema_csv_wrong",
        ),
        _e(
            SCHEMA,
            "blank-lines",
            "blank lines and a missing final newline are ignored",
            "빈 줄",
            "tests/test_queue_checks.py::test_schema_csv_tolerant_reading",
        ),
    ),
)
_judge(
    "Q2.3",
    STATE,
    (
        _e(SCHEMA, "roles-exact", "msg_id idempotency-key, seq sequence", "역할", "variant reference"),
        _e(
            SCHEMA,
            "role-elsewhere",
            "a role also on another field, or on the wrong field",
            "다른 필드의 역할",
            "tests/test_queue_checks.py::test_schema_csv_wrong",
        ),
        _e(
            SCHEMA,
            "role-case",
            "role names in another letter case are accepted",
            "대소문자",
            "tests/test_queue_checks.py::test_schema_csv_tolerant_reading",
        ),
    ),
)
_judge(
    "Q2.4",
    STATE,
    (
        _e(
            SCHEMA,
            "synonyms",
            "common synonyms (text, varchar(20), int, decimal, timestamp ...)",
            "같은 뜻의 타입",
            "variant integrity_error_unique_index_by_hand",
            "variant or_ignore_surrogate_key_writes_own_files",
        ),
        _e(
            SCHEMA,
            "wrong-kind",
            "seq as string, amount as text, ids as integer",
            "값과 맞지 않는 타입",
            "tests/test_queue_checks.py::test_schema_csv_wrong",
        ),
    ),
)
_judge(
    "Q3.1",
    STATE,
    (
        _e(LEDGER, "primary-key", "msg_id TEXT PRIMARY KEY", "PRIMARY KEY", "variant reference"),
        _e(
            LEDGER,
            "table-level-key",
            "PRIMARY KEY (msg_id) as a table constraint",
            "테이블 제약",
            "variant begin_immediate_changes_appends_files",
        ),
        _e(
            LEDGER,
            "unique-index",
            "a separate CREATE UNIQUE INDEX on msg_id",
            "UNIQUE INDEX",
            "variant integrity_error_unique_index_by_hand",
        ),
        _e(
            LEDGER,
            "surrogate-key",
            "id INTEGER PRIMARY KEY with msg_id UNIQUE",
            "대리 키 + UNIQUE",
            "variant or_ignore_surrogate_key_writes_own_files",
        ),
        _e(LEDGER, "no-constraint", "no constraint on msg_id", "제약 없음", "variant select_then_insert"),
        _e(
            LEDGER,
            "composite-key",
            "a key over msg_id and another column does not count",
            "여러 컬럼 묶음 키",
            "tests/test_queue_checks.py::test_ledger_schemas",
        ),
        _e(
            LEDGER,
            "name-case",
            "table and column names in another letter case (SQLite ignores case)",
            "이름의 대소문자",
            "tests/test_queue_checks.py::test_ledger_schemas",
        ),
        _e(
            LEDGER,
            "missing-column",
            "a lab column missing",
            "없는 컬럼",
            "tests/test_queue_checks.py::test_ledger_schemas",
        ),
        NOT_SQLITE,
        _e(
            LEDGER,
            "special-or-unreadable",
            "ledger.db a FIFO, a directory, or unreadable: a FAIL naming it",
            "특수 파일·읽을 수 없는 ledger.db",
            "tests/test_queue_blame.py::test_special_files_as_the_students_files",
            "tests/test_queue_blame.py::test_unreadable_files_without_root",
        ),
        _e(
            LEDGER,
            "locked",
            "ledger.db locked by a student's process: judged from the saved copy",
            "잠긴 ledger.db",
            "tests/test_queue_blame.py::test_ledger_locked_by_the_students_process",
        ),
    ),
)
_judge(
    "Q3.2",
    STATE,
    (
        _e(QUEUE_DIRS, "empty", "processing/ empty", "빈 processing/", "variant reference"),
        _e(QUEUE_DIRS, "file-left", "a file left", "남은 파일", "variant duplicates_stay_in_processing"),
        _e(
            QUEUE_DIRS,
            "subfolder",
            "a file left in a subfolder counts; an empty subfolder does not",
            "하위 폴더",
            "tests/test_queue_checks.py::test_processing_left_overs",
        ),
    ),
)
_judge(
    "Q3.3",
    "fresh_run",
    (EMPTY_INBOX, BLANK_NAMES, *EVERY_MESSAGE, *KNOWN_ID_CLASSES),
    left_out=(
        NOT_UTF8_LEFT_OUT,
        "files not ending in .json: the lab says every inbox file is consumed, step 1 copies "
        "only .json, so whether a consumer skips other names is left open",
        'msg_id "" and values of false: no required field is a boolean, and an empty '
        "idempotency key is not a message the lab describes; the falsy class is exercised "
        'with 0, 0.0 and "" where the field allows it',
    ),
)
_judge("Q3.4", "fresh_run", EVERY_MESSAGE)
_judge("Q3.5", "fresh_run", RECORDED_CLASSES + SAME_ID_CLASSES)
_judge(
    "Q3.6",
    "fresh_run",
    (
        _e(
            INBOX,
            "rerun-state-present",
            "half of the ids (every copy) again under new names, with done/, error/ and the "
            "ledger as the first run left them",
            "앞선 실행의 상태가 남은 채 다시 실행",
        ),
        _e(
            INBOX,
            "again-same-name",
            "two ordinary files again under the names done/ holds them by (a student re-copying "
            "the fixture inbox): exit 0, neither left in inbox/ or processing/ nor put in "
            "error/ (overwriting the identical file in done/ or any other way is the student's)",
            "done/ 에 있는 것과 같은 이름으로 다시 온 파일",
        ),
    ),
)
_judge(
    "Q3.7",
    "two_consumers",
    (
        _e(
            OTHER_CONSUMER,
            "race",
            "each consumer holds one copy of the same msg_id, both waiting at the lock, released together",
            "같은 msg_id 를 하나씩 쥔 두 소비자",
        ),
        _e(
            OTHER_CONSUMER,
            "crowd",
            "a few hundred files, both consumers released together at the lock (lockstep)",
            "수백 개 파일에 동시에 돈 두 소비자",
        ),
        _e(
            OTHER_CONSUMER,
            "crowd-state-present",
            "the crowd meets a queue that has run before: an earlier run's rows in the ledger "
            "and its files in done/, which must all stay (whatever order the two consumers "
            "take the lock in, a consumer that clears the ledger when it starts loses them)",
            "앞선 실행의 행이 있는 원장에서 시작",
        ),
        _e(OTHER_CONSUMER, "dup-identical", "identical duplicates in the crowd", "같은 내용의 중복"),
        _e(
            OTHER_CONSUMER, "dup-different-body", "different-body duplicates in the crowd", "다른 내용의 중복"
        ),
        _e(OTHER_CONSUMER, "parse-truncated", "a parse failure in the crowd", "파싱 실패"),
        _e(OTHER_CONSUMER, "absent-amount", "a missing field in the crowd", "필드 누락"),
    ),
)
_judge("Q3.8", "fresh_run", POISON_CLASSES + SAME_ID_CLASSES)
_judge(
    "Q4.1",
    STATE,
    (
        _e(QUEUE_DIRS, "counts-18-2", "done 18, error 2", "done 18·error 2", "variant reference"),
        _e(QUEUE_DIRS, "wrong", "other counts", "다른 개수", "variant poison_back_to_inbox"),
        _e(
            QUEUE_DIRS,
            "hidden-not-counted",
            "hidden files and subfolders are not counted",
            "숨김 파일·하위 폴더",
            "tests/test_queue_checks.py::test_done_and_error_counts",
        ),
    ),
)
_judge(
    "Q4.2",
    STATE,
    (
        _e(LEDGER, "exact", "15 rows, the unique msg_ids", "고유 msg_id 15건", "variant reference"),
        _e(
            LEDGER,
            "wrong-rows",
            "a row missing or extra",
            "빠지거나 남는 행",
            "tests/test_queue_checks.py::test_ledger_rows",
        ),
        NOT_SQLITE,
    ),
)
_judge(
    "Q4.3",
    STATE,
    (
        _e(DUP_TXT, "exact", "the 3 duplicated msg_ids ascending", "중복 msg_id 3건", "variant reference"),
        _e(
            DUP_TXT,
            "encodings",
            "BOM, CRLF, no final newline, blanks around ids, blank lines",
            "BOM·CRLF·빈 줄",
            "variant reports_with_bom_and_crlf",
            "tests/test_queue_checks.py::test_dup_txt",
        ),
        _e(DUP_TXT, "descending", "ids in another order", "내림차순", "variant dup_txt_descending"),
        _e(DUP_TXT, "file-names", "file names instead of msg_ids", "파일 이름", "variant dup_txt_file_names"),
        _e(DUP_TXT, "none-noticed", "no duplicate noticed", "비어 있음", "variant insert_or_replace"),
        _e(
            DUP_TXT,
            "not-text",
            "not UTF-8, a FIFO or a directory: a FAIL naming it",
            "텍스트가 아님",
            "tests/test_queue_blame.py::test_special_files_as_the_students_files",
            "tests/test_queue_checks.py::test_dup_txt",
        ),
    ),
)
_judge(
    "Q5.1",
    STATE,
    (
        _e(
            ERROR_CSV,
            "exact",
            "header file,reason and one right row per error file",
            "정확한 표",
            "variant reference",
        ),
        _e(
            ERROR_CSV,
            "encodings",
            "BOM, CRLF, quoted cells, blanks around cells",
            "BOM·CRLF·따옴표",
            "variant reports_with_bom_and_crlf",
            "tests/test_queue_checks.py::test_error_csv",
        ),
        _e(
            ERROR_CSV,
            "paths",
            "error/NAME or an absolute path in the file column: its basename counts",
            "경로가 붙은 파일 이름",
            "variant integrity_error_unique_index_by_hand",
            "tests/test_queue_checks.py::test_error_csv",
        ),
        _e(ERROR_CSV, "swapped", "reasons swapped", "사유가 바뀜", "variant error_reasons_swapped"),
        _e(
            ERROR_CSV,
            "rows",
            "a row missing, extra, or twice",
            "빠지거나 남거나 두 번 있는 줄",
            "tests/test_queue_checks.py::test_error_csv",
        ),
    ),
)
_judge(
    "Q6.1",
    "order_checks",
    (
        _e(CHECKED_LEDGER, "own-ledger", "the student's own ledger (a copy)", "학생의 ledger.db"),
        _e(
            ORDER_SQL,
            "sql-encodings",
            "the SQL file in UTF-8 with or without BOM, LF or CRLF, comments, no final semicolon",
            "BOM·CRLF 인 SQL",
            "variant reports_with_bom_and_crlf",
            "tests/test_queue_checks.py::test_sql_statements",
        ),
        _e(
            ORDER_SQL,
            "dot-commands",
            "sqlite3 shell dot-commands (.headers on, .mode) are skipped",
            ".명령",
            "variant or_ignore_surrogate_key_writes_own_files",
        ),
        _e(
            CHECKED_LEDGER,
            "unusable-ledger",
            "a ledger.db that cannot be read, or has no processed table: a FAIL saying why",
            "쓸 수 없는 ledger.db",
            "tests/test_queue_blame.py::test_ledger_that_is_not_sqlite",
        ),
        _e(
            ORDER_SQL,
            "unreadable-sql",
            "order-check.sql not UTF-8, or not a regular file: a FAIL saying so",
            "읽을 수 없는 SQL",
            "tests/test_queue_blame.py::test_special_files_as_the_students_files",
        ),
    ),
)
_judge(
    "Q6.2",
    "order_checks",
    (
        _e(CHECKED_LEDGER, "dup-first", "the first seq of an order repeated", "첫 seq 가 중복"),
        _e(CHECKED_LEDGER, "dup-middle", "a seq in the middle repeated", "중간 seq 가 중복"),
        _e(CHECKED_LEDGER, "dup-last", "the last seq repeated", "마지막 seq 가 중복"),
        _e(CHECKED_LEDGER, "dup-at-10", "seq 10 repeated in an order 1..11", "seq 10 이 중복(자릿수 경계)"),
        _e(
            CHECKED_LEDGER,
            "dup-at-100",
            "seq 100 repeated in an order 1..101",
            "seq 100 이 중복(자릿수 경계)",
        ),
        _e(CHECKED_LEDGER, "dup-one-element", "an order of one seq, repeated", "seq 하나뿐인 주문의 중복"),
        _e(CHECKED_LEDGER, "dup-three-times", "a seq three times", "세 번 나온 seq"),
        _e(
            CHECKED_LEDGER,
            "dup-and-hole",
            "a repeat and a hole in one order, first and last seq kept (rows = MAX-MIN+1)",
            "한 주문에 중복과 구멍이 함께(행 수 = MAX-MIN+1)",
        ),
        SCRAMBLED,
    ),
)
_judge(
    "Q6.3",
    "order_checks",
    (
        _e(CHECKED_LEDGER, "hole-1-2-4", "an order 1,2,4 (hole of width 1)", "1,2,4(구멍 폭 1)"),
        _e(CHECKED_LEDGER, "hole-1-2-6", "an order 1,2,6 (hole of width 3)", "1,2,6(구멍 폭 3)"),
        _e(CHECKED_LEDGER, "hole-1-3-5-9", "an order 1,3,5,9 (three holes)", "1,3,5,9(구멍 여러 개)"),
        _e(CHECKED_LEDGER, "hole-width-2", "a hole of width 2 in a long order", "구멍 폭 2"),
        _e(CHECKED_LEDGER, "hole-width-5", "a hole of width 5 in a long order", "구멍 폭 5"),
        _e(CHECKED_LEDGER, "hole-after-first", "the second seq missing", "두 번째 seq 가 빠짐"),
        _e(
            CHECKED_LEDGER, "hole-before-last", "the second-to-last seq missing", "끝에서 두 번째 seq 가 빠짐"
        ),
        _e(CHECKED_LEDGER, "hole-at-10", "seq 10 missing (9 → 11)", "seq 10 이 빠짐(9→11)"),
        _e(CHECKED_LEDGER, "hole-at-100", "seq 100 missing (99 → 101)", "seq 100 이 빠짐(99→101)"),
        _e(CHECKED_LEDGER, "hole-two-element", "an order 1,3", "1,3(seq 두 개)"),
        _e(
            CHECKED_LEDGER,
            "hole-first-order",
            "the hole in the order with the smallest order_no",
            "첫 주문의 구멍",
        ),
        _e(
            CHECKED_LEDGER,
            "hole-last-order",
            "the hole in the order with the largest order_no",
            "마지막 주문의 구멍",
        ),
        _e(
            CHECKED_LEDGER,
            "hole-and-dup",
            "seq 10 missing and 9 repeated in an order 1..11 (rows = MAX-MIN+1)",
            "seq 10 이 빠지고 9 가 중복(행 수 = MAX-MIN+1)",
        ),
        SCRAMBLED,
    ),
    left_out=(
        "holes before the first seq (an order starting above 1): not required by the "
        "decisions, so no ledger has one, clean or faulty",
    ),
)
_judge(
    "Q6.4",
    "order_checks",
    (
        _e(
            CHECKED_LEDGER,
            "clean-widths",
            "orders of 1, 2, 9, 10, 11 and 101 seqs plus small ones, every order from 1",
            "길이 1·2·9·10·11·101 인 주문",
        ),
        _e(CHECKED_LEDGER, "clean-empty", "an empty ledger", "빈 장부"),
        _e(CHECKED_LEDGER, "clean-one-row", "a ledger of one row", "한 행뿐인 장부"),
        SCRAMBLED,
    ),
)
_judge(
    "Q6.5",
    STATE,
    (
        _e(ORDER_RESULT, "ok", "first line OK", "OK", "variant reference"),
        _e(
            ORDER_RESULT,
            "encodings",
            "BOM, CRLF, blanks around OK",
            "BOM·CRLF",
            "variant reports_with_bom_and_crlf",
            "tests/test_queue_checks.py::test_order_result",
        ),
        _e(
            ORDER_RESULT,
            "what-follows-ok",
            "anything after OK (later lines, or after OK and a space on its line) is free",
            "OK 뒤의 내용",
            "tests/test_queue_checks.py::test_order_result",
        ),
        _e(
            ORDER_RESULT,
            "not-ok",
            "rows, an error, an empty file, or a word such as OKAY",
            "OK 가 아님",
            "variant order_check_seq_as_text",
            "tests/test_queue_checks.py::test_order_result",
        ),
    ),
)
_judge(
    "Q7.1",
    "lag_runs",
    (
        _e(LAG_FOLDER, "count-0", "each directory empty", "비어 있는 디렉터리"),
        _e(LAG_FOLDER, "count-1", "one file in a directory", "파일 하나"),
        _e(
            LAG_FOLDER,
            "count-widths",
            "counts of 9, 10, 11, 99, 100, 256 (inbox), 9, 10, 11 (the others)",
            "자릿수가 다른 건수",
        ),
        _e(
            LAG_FOLDER,
            "subdirectory",
            "a subdirectory (with files) in inbox, processing, error: not counted",
            "하위 폴더",
        ),
        _e(
            LAG_FOLDER,
            "dotfile",
            "a hidden regular file in inbox: counted or not, both accepted",
            "숨김 파일",
        ),
        _e(LAG_FOLDER, "done-ignored", "files in done/ are not reported", "done/ 의 파일"),
        _e(
            LAG_FOLDER,
            "blank-names",
            "files named with a blank and parentheses (`… (2).json`) in inbox, processing and "
            "error: one file each (ls | wc -l and find | wc -l count them right; a count of words "
            "does not)",
            "이름에 공백·괄호가 든 파일",
        ),
        _e(LAG_FOLDER, "not-root-q", "a queue dir of the grader's, not /root/q", "채점기가 만든 큐 디렉터리"),
    ),
    left_out=(
        "names with a newline, and queue dirs whose path has blanks: counting them right "
        "needs more than the lab teaches (ls | wc -l and find | wc -l both miscount them)",
    ),
)
_judge(
    "Q7.2",
    "lag_runs",
    (
        _e(LAG_THRESHOLD, "threshold-equal", "inbox equal to the threshold: exit 0", "임계치와 같음"),
        _e(LAG_THRESHOLD, "threshold-below", "inbox one below: exit 0", "임계치보다 하나 적음"),
        _e(LAG_THRESHOLD, "threshold-above", "inbox one above: non-zero", "임계치보다 하나 많음"),
        _e(LAG_THRESHOLD, "zero", "threshold 0 with inbox 0 and with inbox 1", "임계치 0"),
        _e(
            LAG_THRESHOLD,
            "across-9-10",
            "inbox 10 over threshold 9, inbox 9 under threshold 10",
            "9↔10 자릿수 경계",
        ),
        _e(
            LAG_THRESHOLD,
            "across-99-100",
            "inbox 100 over threshold 99, inbox 99 under threshold 100",
            "99↔100 자릿수 경계",
        ),
        _e(
            LAG_THRESHOLD,
            "over-by-256",
            "inbox 256 over threshold 0: an exit status is one byte, so exit $inbox (or the "
            "excess) reads as 0",
            "256개로 임계치 0 초과(종료 코드는 0~255)",
        ),
        _e(
            LAG_THRESHOLD,
            "subfolder-at-threshold",
            "inbox holding as many regular files as the threshold beside a subfolder with files: "
            "exit 0 (a subfolder is no message; ls | wc -l counts it and exits non-zero)",
            "임계치와 같은 수의 파일 옆에 하위 폴더(하위 폴더는 메시지 아님)",
        ),
    ),
)
_judge(
    "Q8.1",
    "replay_runs",
    (
        _e(REPLAY_NAME, "plain-name", "an ordinary name in error/", "보통 이름"),
        _e(REPLAY_NAME, "name-with-space", "a name with a space, present in error/", "공백이 든 이름"),
        _e(REPLAY_FILE, "empty-file", "an empty file (the empty poison message): bytes unchanged", "빈 파일"),
        _e(
            REPLAY_FILE,
            "crlf-file",
            "a file with CRLF line ends: bytes unchanged (no text-mode copy)",
            "CRLF 줄끝 파일",
        ),
        _e(
            REPLAY_FILE,
            "not-utf8-file",
            "a file that is not UTF-8 (a poison message): bytes unchanged",
            "UTF-8 이 아닌 파일",
        ),
    ),
)
_judge(
    "Q8.2",
    "replay_runs",
    (
        _e(REPLAY_NAME, "in-done-only", "a name in done/ but not in error/", "done/ 에만 있는 이름"),
        _e(REPLAY_NAME, "in-inbox-only", "a name in inbox/ but not in error/", "inbox/ 에만 있는 이름"),
        _e(REPLAY_NAME, "in-processing-only", "a name in processing/ only", "processing/ 에만 있는 이름"),
        _e(REPLAY_NAME, "nowhere", "a name nowhere in the queue", "어디에도 없는 이름"),
    ),
)
_judge(
    "Q8.3",
    "replay_runs",
    (
        _e(REPLAY_NAME, "dotdot-path", "../done/NAME", "../done/ 경로"),
        _e(REPLAY_NAME, "absolute-outside", "an absolute path outside the queue", "큐 밖의 절대 경로"),
        _e(REPLAY_NAME, "absolute-done", "an absolute path of a file in done/", "done/ 파일의 절대 경로"),
        _e(REPLAY_NAME, "empty", "an empty name", "빈 이름"),
        _e(REPLAY_NAME, "dot", '"." and ".."', '"." 과 ".."'),
        _e(REPLAY_NAME, "directory", "a directory inside error/", "error/ 안의 디렉터리"),
        _e(REPLAY_NAME, "glob", "a glob (*)", "글롭(*)"),
        _e(REPLAY_NAME, "space-not-there", "a name with spaces that is not there", "없는, 공백이 든 이름"),
        _e(
            REPLAY_NAME,
            "two-names",
            "two names in error/ joined by a space",
            "error/ 의 두 이름을 공백으로 이은 것",
        ),
    ),
    left_out=(
        "a path whose last part names a file in error/ (../error/NAME, /root/q/error/NAME): "
        "a script that takes the basename moves the right file, so it is not judged",
    ),
)

# Anomalies that meet in one unit: every pair of families produced together, or why never.
_ID = MAP.unit(
    "one msg_id in the inboxes of one queue",
    duplicate=DUPLICATE_CLASSES,
    parse_failure=PARSE_CLASSES,
    missing_field=MISSING_CLASSES,
    falsy_value=FALSY_CLASSES,
    optional_fields=OPTIONAL_CLASSES,
    digit_boundary=VALID_CLASSES[1:],
    processed_before=KNOWN_ID_CLASSES,
)
_NO_ID = "a file that does not parse has no msg_id and no fields to carry another anomaly"
_SAME_END = (
    "a message missing a required field goes to error/ as missing-field whatever else it holds: "
    "no reading of the other anomaly changes where it ends"
)
for family in (
    "duplicate",
    "missing field",
    "falsy value",
    "optional fields",
    "digit boundary",
    "processed before",
):
    MAP.meet(_ID, "parse failure", family, why=_NO_ID)
MAP.meet(_ID, "duplicate", "missing field", POISON_TWICE)
MAP.meet(_ID, "duplicate", "falsy value", DUPLICATE_PAIRS[0])
MAP.meet(_ID, "duplicate", "optional fields", DUPLICATE_PAIRS[1])
MAP.meet(_ID, "duplicate", "digit boundary", DUPLICATE_PAIRS[2])
MAP.meet(_ID, "duplicate", "processed before", MAP.partition("Q3.6", "rerun-state-present"))
MAP.meet(_ID, "missing field", "processed before", KNOWN_ID_CLASSES[0])
MAP.meet(_ID, "missing field", "falsy value", why=_SAME_END)
MAP.meet(_ID, "missing field", "optional fields", why=_SAME_END)
MAP.meet(_ID, "missing field", "digit boundary", why=_SAME_END)
_BOTH_VALID = (
    "both are valid classes a correct consumer records as they are; the pair asks nothing "
    "either alone does not"
)
MAP.meet(_ID, "falsy value", "optional fields", why=_BOTH_VALID)
MAP.meet(_ID, "falsy value", "digit boundary", why="a falsy seq or amount is 0, the bottom of its range")
MAP.meet(_ID, "optional fields", "digit boundary", why=_BOTH_VALID)
for family in ("falsy value", "optional fields", "digit boundary"):
    MAP.meet(
        _ID,
        family,
        "processed before",
        why="a valid message whose msg_id was processed is a duplicate, met above with each class",
    )
_ORDER = MAP.unit(
    "one order in a ledger order-check.sql runs on",
    repeat=tuple(p for p in MAP.partitions("Q6.2") if p.key.startswith("dup-") and p.key != "dup-and-hole"),
    hole=tuple(p for p in MAP.partitions("Q6.3") if p.key.startswith("hole-") and p.key != "hole-and-dup"),
    rows_out_of_order=(SCRAMBLED,),
)
MAP.meet(_ORDER, "repeat", "hole", MAP.partition("Q6.2", "dup-and-hole"))
MAP.meet(_ORDER, "repeat", "rows out of order", SCRAMBLED)
MAP.meet(_ORDER, "hole", "rows out of order", SCRAMBLED)
_LAG = MAP.unit(
    "one lag.sh run on one queue folder",
    threshold_boundary=tuple(
        MAP.partition("Q7.2", k) for k in ("threshold-equal", "threshold-below", "threshold-above", "zero")
    ),
    entry_not_a_message=(MAP.partition("Q7.1", "subdirectory"),),
    exit_status_width=(MAP.partition("Q7.2", "over-by-256"),),
)
MAP.meet(_LAG, "threshold boundary", "entry not a message", MAP.partition("Q7.2", "subfolder-at-threshold"))
MAP.meet(_LAG, "threshold boundary", "exit status width", MAP.partition("Q7.2", "over-by-256"))
MAP.meet(
    _LAG,
    "entry not a message",
    "exit status width",
    why="a status past 255 needs 256 files over the threshold; a miscounted subfolder moves the "
    "count by one, which the threshold's boundary judges",
)

MESSAGE_LABELS = {p.key: p.shown for p in (*EVERY_MESSAGE, *KNOWN_ID_CLASSES)} | {"race": "경주용 사본"}


def message_label(case: str) -> str:
    """How a failure message names a message's class (fixtures' QueueFile.case)."""
    return MESSAGE_LABELS.get(case, case)


def label(rid: str, key: str) -> str:
    """How a failure message names the partition ``key`` of ``rid``."""
    return MAP.label(rid, key)


def scenario_keys(rid: str) -> frozenset[str]:
    """The partitions ``rid``'s scenario produces itself (the others depend on what the student
    wrote and are produced by the self-tests in their ``shown_by``)."""
    return MAP.produced(rid)


def ensure(scenario: str, covered: Iterable[str]) -> None:
    """Every partition ``scenario`` must produce was produced; otherwise a harness fault."""
    MAP.ensure(scenario, covered)


def render(ids: Iterable[str]) -> str:
    """The published table, in the order of ``ids`` (the catalogue's)."""
    intro = """
Generated from the partition map (`grader/queue/edges.py` and what the scenarios judge beside
themselves) by `./dev.sh edges`.

For every requirement id, the partitions of its inputs' domains that its check judges. A
behaviour id's scenario produces every partition in every run (it fails as a harness fault
otherwise); the random seed varies only the values inside a partition. A state id is judged on
the student's saved tree; its partitions are produced by the self-tests and variants named
beside them.
"""
    return MAP.markdown("Queue lab: the partition map", intro, ids)
