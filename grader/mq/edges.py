"""The mq lab's partition map: the inputs its checks judge, the partitions of each input's domain
(from the lab text and the decisions, ../shared/labs/mq.md), and which id judges which partition
in which scenario (grader/machinery/partitions.py: the model both labs share). Every run produces
every partition (the seed only varies values inside one: guids, claim numbers, amounts, names,
the order of a mixed queue, which a good claim always opens and closes).

The checks name the partition that failed in their FAIL message (``f"{edges.KILL_HELD}: ..."``),
and the records carry the partitions their scenario ran. A scenario may declare a partition it
produces beside itself (``NAME = edges.edge(INPUT, "NAME", ...)`` in scenarios.py, named
``scenarios.NAME`` by its check): a new id then touches its catalogue entry, its scenario, its
check and a variant, nothing else. The published table is derived from the whole map
(``./dev.sh edges``, through grader/mq/edgemap.py); a self-test checks that every partition is
used by the scenarios or the checks.
"""

from __future__ import annotations

from collections.abc import Iterable

from grader.machinery.partitions import Input, Partition, PartitionMap

MAP = PartitionMap()
EDGES: list[Partition] = []
SAVED_TREE = "saved tree"  # status.txt as the student left it (a state judgement)

# The inputs ------------------------------------------------------------------------------------
STATUS = MAP.input(
    "status.txt",
    """What `rabbitmqctl status` printed for rabbit@localhost, saved by the student: UTF-8 with
    or without a BOM, LF or CRLF, ANSI colours; or one line of it, another command's output,
    not text.""",
)
NODE = MAP.input(
    "the student's node rabbit@localhost",
    """Up on 5672/15672 with the memory limit mq-up.sh sets (536870912 bytes), another limit,
    or down.""",
)
VHOST = MAP.input(
    "the vhost topology.py is run against",
    """Any vhost named by EAI_AMQP_URL (never `/`): empty, or already holding the topology with
    claims waiting in claim.in and claim.dead.""",
)
TOPOLOGY = MAP.input(
    "the topology as topology.py leaves it",
    """The two exchanges, two queues and two bindings the lab lists, with any flags and
    arguments, and anything else declared beside them (audit queues, an ingress exchange).""",
)
CLAIM_FILE = MAP.input(
    "the claim file given to publish.py",
    """A JSON claim (guid, claimId, docs) of any kind the claim system answers (good, no docs,
    BUSY), pretty-printed or on one line, with or without a final newline, Korean text inside.""",
)
BROKER_ANSWER = MAP.input(
    "the broker's answer to publish.py's publish",
    """Confirmed and routed; returned as unroutable (no queue, or claim.in bound with another
    key); nacked.""",
)
CLAIMS = MAP.input(
    "the claims waiting in claim.in",
    """Any number of claims of each kind (good: 201, no docs: 422, BUSY: 503), alone or
    shuffled together.""",
)
PARTNER = MAP.input(
    "the claim system's answer to a POST",
    """201, 422 or 503 at once; a 503 first and a 201 on the retry; slowly; never (the call held
    until the client gives up), once or every time; the connection refused.""",
)
CLOCK = MAP.input(
    "--max-seconds against the work there is",
    """A deadline reached with claim.in empty from the start, or with claims still waiting and
    a call in flight.""",
)
LIFETIME = MAP.input(
    "the consumer process's life",
    """Killed (SIGKILL) while a POST is held, after the claim system answered but before the
    consumer read it, between its record and its ack (the ack never reaching the broker), right
    after an ack; started again on the same EAI_MQ_DB.""",
)
PREFETCH = MAP.input(
    "--prefetch",
    """Absent (the lab's default, 5) or a positive number smaller than the default.""",
)
SEEN_BEFORE = MAP.input(
    "a claim seen before",
    """Its message_id published again after it succeeded (at once or on its retry, to the same
    process or after a restart), or after it failed (503, or 422 then mended); or the same
    claim (claimId and every other field) under a message_id never seen, a new message.""",
)
RECORD_DB = MAP.input(
    "EAI_MQ_DB",
    """A path the grader chooses (fresh per scenario) for an SQLite file of any schema.""",
)


def edge(input: Input, name: str, ids: str, scenario: str, what: str, shown: str) -> Partition:
    """Declare a partition of ``input`` judged by ``ids`` in ``scenario`` (its ``name`` is the
    constant it is bound to; ``SAVED_TREE``: judged on the student's saved tree)."""
    if any(known.key == name for known in EDGES):
        raise ValueError(f"partition {name} declared twice")
    made = Partition(input, name, " ".join(what.split()), shown)
    EDGES.append(made)
    for rid in ids.split():
        MAP.judge(rid, None if scenario == SAVED_TREE else scenario, made)
    return made


# step 1: status.txt and the live node -----------------------------------------------------------
STATUS_TEXT = edge(
    STATUS,
    "STATUS_TEXT",
    "M1.1 M1.2",
    SAVED_TREE,
    """status.txt read with the one tolerant reader: UTF-8 with or without a BOM, LF or CRLF,
    with or without a final newline, ANSI colour codes dropped. Not UTF-8, a FIFO or a
    directory: a FAIL that says which.""",
    "status.txt 읽기",
)
STATUS_WHOLE = edge(
    STATUS,
    "STATUS_WHOLE",
    "M1.1",
    SAVED_TREE,
    """The output of `rabbitmqctl status` for rabbit@localhost: its node header (`Status of node
    rabbit@localhost` or `Node name: rabbit@localhost`) and its sections (RabbitMQ version, the
    memory watermark). One line copied out of it, or another command's output, is refused.""",
    "rabbitmqctl status 출력 전체인가",
)
WATERMARK_LINE = edge(
    STATUS,
    "WATERMARK_LINE",
    "M1.2",
    SAVED_TREE,
    """`Memory high watermark setting: 0.5369 gb` (absolute 512MiB as mq-up.sh sets it); the
    default relative watermark (`0.4 of available memory`) is refused.""",
    "status.txt 의 메모리 경보 줄",
)
LIVE_NODE = edge(
    NODE,
    "LIVE_NODE",
    "M1.3",
    "student_node",
    """Student mode: rabbit@localhost answers on 5672/15672 (down: M1.3 FAILs and the rest is
    graded on a private node); the limit it computed (management API `mem_limit`, else
    `vm_memory_monitor:get_memory_limit()` through rabbitmqctl) is exactly 536870912 bytes.
    Read once, concurrently with the scenarios.""",
    "살아 있는 rabbit@localhost",
)

# step 2: topology.py ------------------------------------------------------------------------------
TOPOLOGY_FIRST = edge(
    VHOST,
    "TOPOLOGY_FIRST",
    "M2.1",
    "topology",
    """First run in an empty vhost handed over by EAI_AMQP_URL (never `/`): exit 0, and
    something is declared in that vhost.""",
    "빈 vhost 에서 첫 실행",
)
TOPOLOGY_AGAIN = edge(
    VHOST,
    "TOPOLOGY_AGAIN",
    "M2.1",
    "topology",
    """Second run with everything already declared: exit 0.""",
    "모두 선언된 뒤 두 번째 실행",
)
TOPOLOGY_KEEPS_CLAIMS = edge(
    VHOST,
    "TOPOLOGY_KEEPS_CLAIMS",
    "M2.1",
    "topology",
    """The second run happens while 2 claims wait in claim.in AND 2 in claim.dead (persistent,
    put there through the default exchange, so no binding is needed): all 4 are still there
    after it. A script that deletes, purges or re-creates a queue fails.""",
    "claim.in·claim.dead 에 청구가 기다리는 중 두 번째 실행",
)
EXCHANGES = edge(
    TOPOLOGY,
    "EXCHANGES",
    "M2.2",
    "topology",
    """eai.claim and eai.dlx, each: exists, type direct, durable (read after both runs).""",
    "교환기",
)
EXCHANGES_KEEP = edge(
    TOPOLOGY,
    "EXCHANGES_KEEP",
    "M2.2",
    "topology",
    """Neither exchange is auto_delete (it goes when its last binding does), and eai.claim is
    not internal (no client could publish a claim to it).""",
    "교환기가 남아 있고 발행을 받는가",
)
QUEUES = edge(
    TOPOLOGY,
    "QUEUES",
    "M2.3",
    "topology",
    """claim.in durable with x-dead-letter-exchange=eai.dlx and
    x-dead-letter-routing-key=claim.dead exactly; claim.dead durable (read after both runs).""",
    "큐와 DLX 인자",
)
QUEUES_KEEP = edge(
    TOPOLOGY,
    "QUEUES_KEEP",
    "M2.3",
    "topology",
    """claim.in and claim.dead keep what waits in them: neither auto_delete nor exclusive (the
    queue goes, with its claims, when its last consumer or its connection does), no argument
    that removes messages by itself (x-message-ttl, x-expires, x-max-length,
    x-max-length-bytes). Other arguments (x-queue-type, x-max-priority, lazy mode ...) are not
    judged.""",
    "큐가 기다리는 청구를 지키는가",
)
BINDINGS = edge(
    TOPOLOGY,
    "BINDINGS",
    "M2.4",
    "topology",
    """eai.claim→claim.in with key claim and eai.dlx→claim.dead with key claim.dead.""",
    "바인딩",
)
BINDINGS_CROSS = edge(
    TOPOLOGY,
    "BINDINGS_CROSS",
    "M2.4",
    "topology",
    """No binding that sends a claim where it does not belong: into claim.dead from any exchange
    but eai.dlx (every claim copied to the dead letters), into claim.in from eai.dlx (dead
    letters looping back), or between eai.claim and eai.dlx (exchange_bind either way). Other
    bindings (an audit queue, an ingress exchange bound to eai.claim) are not judged.""",
    "청구를 엉뚱한 곳으로 보내는 바인딩",
)

# step 3: publish.py -------------------------------------------------------------------------------
PUBLISH_GOOD = edge(
    CLAIM_FILE,
    "PUBLISH_GOOD",
    "M3.1 M3.2",
    "publish",
    """A good claim in a pretty-printed file with a final newline (the fixtures' format), Korean
    text inside: exit 0, exactly one message in claim.in, its body the file's JSON (parsed JSON
    equal; other bytes pass: the lab's decision), delivery_mode 2, message_id = guid,
    content_type application/json, routed through eai.claim with key claim.""",
    "정상 청구(여러 줄 JSON 파일)",
)
PUBLISH_EMPTY_DOCS = edge(
    CLAIM_FILE,
    "PUBLISH_EMPTY_DOCS",
    "M3.1 M3.2",
    "publish",
    """A claim whose docs is an empty list (present but falsy: the publisher does not judge
    claims, the claim system does) in a one-line file without a final newline: the same.""",
    "docs 가 빈 청구(한 줄 JSON, 끝 줄바꿈 없음)",
)
PUBLISH_BUSY = edge(
    CLAIM_FILE,
    "PUBLISH_BUSY",
    "M3.1 M3.2",
    "publish",
    """A BUSY claim (claimId `BUSY-…`): the same; its message_id is the guid, never the
    claimId.""",
    "BUSY 청구",
)
UNROUTABLE_NO_QUEUE = edge(
    BROKER_ANSWER,
    "UNROUTABLE_NO_QUEUE",
    "M3.3",
    "unroutable",
    """eai.claim (and eai.dlx) exist, no queue at all: exit non-zero, within the script
    timeout.""",
    "큐가 하나도 없음",
)
UNROUTABLE_OTHER_KEY = edge(
    BROKER_ANSWER,
    "UNROUTABLE_OTHER_KEY",
    "M3.3",
    "unroutable",
    """claim.in and claim.dead exist, claim.in bound to eai.claim only with another key
    (`claim.other`): nothing is bound for `claim`, so exit non-zero (a publisher that only
    checks that claim.in exists fails here).""",
    "claim.in 은 있으나 claim 키로 묶이지 않음",
)
NACKED = edge(
    BROKER_ANSWER,
    "NACKED",
    "M3.4",
    "nacked",
    """A policy max-length 0 + overflow reject-publish on claim.in, seen in force by the
    grader's own confirmed publish first: exit non-zero. A policy that never takes effect is a
    harness fault, never a FAIL.""",
    "브로커가 nack",
)

# step 4: consumer.py ------------------------------------------------------------------------------
GOOD_ALONE = edge(
    CLAIMS,
    "GOOD_ALONE",
    "M4.1",
    "good_claims",
    """5 good claims alone in claim.in: each POSTed once to /v1/claims with a body that is the
    same JSON (Korean text inside: the bytes must stay UTF-8), each acked; claim.in and
    claim.dead empty at the end. This consumer, like every one judged on its work, gets a long
    --max-seconds and is stopped once each claim was POSTed and claim.in holds nothing: a slow
    machine only makes it take longer.""",
    "정상 청구 5건만 있는 큐",
)
GOOD_AMONG_OTHERS = edge(
    CLAIMS,
    "GOOD_AMONG_OTHERS",
    "M4.1",
    "mixed_claims",
    """3 good claims shuffled among 2 no-docs (422) and 2 BUSY (503) claims: each good one
    POSTed once with the same JSON and acked (none left in claim.in or claim.dead).""",
    "422·503 청구와 섞인 정상 청구",
)
DEADLINE_EMPTY = edge(
    CLOCK,
    "DEADLINE_EMPTY",
    "M4.2",
    "idle_queue",
    """claim.in empty from the start, --max-seconds 2: exit 0 within 2 + 5 s of being seen
    consuming claim.in (2 + 8 s of its start if it never registers as a consumer); a consumer
    that only checks its deadline after a message never ends.""",
    "처음부터 빈 큐",
)
DEADLINE_BUSY = edge(
    CLOCK,
    "DEADLINE_BUSY",
    "M4.2",
    "busy_queue",
    """30 claims before a partner that takes 0.5 s per claim (15 s of work), --max-seconds 3:
    exit 0 within 3 + 5 s of being seen at work, with claims still waiting (a time limit that
    only counts idle time, e.g. `inactivity_timeout=max_seconds`, fails). The grace covers one
    claim in flight and either pika style (a consume() generator with an inactivity timeout,
    basic_consume with process_data_events or start_consuming and call_later). "Seen at work"
    is the first of: the broker counts it as a consumer of claim.in, the partner gets its
    first POST; so a slow start under load is never held against the consumer.""",
    "느린 청구 시스템 앞에 일이 쌓인 큐",
)
KILL_HELD = edge(
    LIFETIME,
    "KILL_HELD",
    "M4.3 M4.4",
    "crashes",
    """3 claims; the partner holds the first POST unanswered. While it is held, ready + unacked
    of claim.in + claim.dead = 3 (nothing acked before a 201: M4.4); then SIGKILL, the held
    request dropped without an answer: ready + claim.dead + 201s = 3 (nothing lost: M4.3).""",
    "청구 시스템이 응답하기 전 SIGKILL",
)
KILL_AFTER_201 = edge(
    LIFETIME,
    "KILL_AFTER_201",
    "M4.4",
    "crashes",
    """A new consumer (2 fresh claims added) has its first POST held; it is stopped (SIGSTOP),
    the partner answers 201, then SIGKILL: the accepted claim is still in claim.in, since the
    consumer never saw the 201. Redelivered messages it dead-letters without a try count as
    kept (the lab's decision: no second chance is counted on for them).""",
    "201 을 보냈지만 소비자가 읽기 전 SIGKILL",
)

# step 5 and 6: dead letters and transient failures ------------------------------------------------
REJECT_ONE = edge(
    CLAIMS,
    "REJECT_ONE",
    "M5.1",
    "one_of_each",
    """One no-docs claim beside one good and one BUSY claim: exactly one POST, in claim.dead
    with x-death reason rejected from claim.in, not back in claim.in.""",
    "422 청구 1건",
)
REJECT_SEVERAL = edge(
    CLAIMS,
    "REJECT_SEVERAL",
    "M5.1",
    "mixed_claims",
    """2 no-docs claims shuffled among good and BUSY ones: each the same.""",
    "다른 청구와 섞인 422 청구 2건",
)
BUSY_ONE = edge(
    CLAIMS,
    "BUSY_ONE",
    "M6.1",
    "one_of_each",
    """One BUSY claim beside one good and one no-docs claim: exactly two POSTs (one requeue),
    then claim.dead.""",
    "503 청구 1건",
)
BUSY_SEVERAL = edge(
    CLAIMS,
    "BUSY_SEVERAL",
    "M6.1",
    "mixed_claims",
    """2 BUSY claims shuffled among good and no-docs ones: each the same.""",
    "다른 청구와 섞인 503 청구 2건",
)
BUSY_THEN_ACCEPTED = edge(
    PARTNER,
    "BUSY_THEN_ACCEPTED",
    "M6.1",
    "mixed_claims",
    """A good claim shuffled among the others, answered 503 on its first call and 201 on the
    next (the partner's busy_once order): exactly two POSTs, then acked (neither in claim.in
    nor in claim.dead). The one retry exists for this: a consumer that dead-letters a
    redelivered claim whatever the claim system answers, or never tries it again, loses it.""",
    "503 뒤 재시도에서 201 을 받는 청구",
)
REFUSED = edge(
    PARTNER,
    "REFUSED",
    "M6.2",
    "claim_system_down",
    """3 claims, --claim a bound port that refuses every connection: every claim ends in
    claim.dead, and the consumer does not crash (when it ends is M4.2's business). A refused
    connection has no call count to check (the lab's decision).""",
    "청구 시스템 연결 거부",
)
HANG_TWICE = edge(
    PARTNER,
    "HANG_TWICE",
    "M6.3",
    "claim_system_hangs_twice",
    """1 claim, the partner holds every POST until the client gives up, a far deadline
    (--max-seconds 60, the grader stops the consumer): both calls end by the consumer's own HTTP
    timeout. Stopped once claim.in is empty, once the claim is POSTed a third time, or 25 s
    after its first POST (two HTTP timeouts up to about 10 s each). Fails: a crash, no POST, the
    claim lost, the claim in claim.dead after one POST (the timeout not treated as transient), a
    third POST (requeued after its redelivery failed), the claim in claim.in after two POSTs
    with no call held when stopped (the second failure neither dead-lettered nor requeued), or
    the first call still held at the stop (a timeout as long as the run: the time left until
    --max-seconds, or none; no hang is then ever redelivered). The second call still held at
    the stop passes here.""",
    "청구 시스템이 두 번 응답하지 않음",
)
HANG_BUSY = edge(
    PARTNER,
    "HANG_BUSY",
    "M6.3",
    "claim_system_hangs_busy",
    """60 claims, the partner holds every POST until the client gives up, --max-seconds 2 (the
    first held call alone outlasts it): the queue cannot drain in time (two held calls a
    claim), so a consumer stopped at 2 + 10 s after being seen at work with claims still in
    claim.in, or with a call still held (no HTTP timeout), was busy past its deadline (one that
    looks at its deadline only when the queue is idle); no crash, none lost. Where each claim
    ends is judged by HANG_TWICE alone: a call cut short by the deadline cannot be told from a
    second timeout here.""",
    "응답하지 않는 청구 시스템 앞에 청구가 쌓인 큐",
)

# step 7: prefetch ---------------------------------------------------------------------------------
PREFETCH_DEFAULT = edge(
    PREFETCH,
    "PREFETCH_DEFAULT",
    "M7.1",
    "prefetch_default",
    """24 claims, a partner that takes 1 s per claim, no --prefetch: every change of claim.in's
    unacked is watched inside the broker from before the consumer starts until 1.5 s after it
    first takes a message (then it is stopped): the highest is at most 5 and exactly 5. A
    consumer that never takes a message while it runs fails; a watch that cannot start is a
    harness fault.""",
    "--prefetch 없이(기본 5)",
)
PREFETCH_TWO = edge(
    PREFETCH,
    "PREFETCH_TWO",
    "M7.2",
    "prefetch_two",
    """The same with --prefetch 2: at most 2, exactly 2.""",
    "--prefetch 2",
)

# step 8: de-duplication ---------------------------------------------------------------------------
DUP_LATER = edge(
    SEEN_BEFORE,
    "DUP_LATER",
    "M8.1",
    "dedup",
    """A claim processed with success (POSTed, 201, acked), then published again to the same
    process: no POST, acked (not left unacked, not dead-lettered); calls counted after a
    barrier claim. Two copies waiting at once are no part of it: a consumer working on both
    at once POSTs both, and the catalogue asks nothing of that. A consumer that ended by itself
    long before its --max-seconds (the queue was empty for a moment) is told so.""",
    "성공한 뒤 같은 프로세스에 다시 옴",
)
DUP_AFTER_RETRY = edge(
    SEEN_BEFORE,
    "DUP_AFTER_RETRY",
    "M8.1",
    "mixed_claims",
    """The claim of the mixed queue accepted on its retry (503 first, 201 on the redelivery),
    published again to the same process once every claim was decided, a barrier claim behind
    it: no POST, acked. Success is success whichever try it came on: a consumer that records
    only on a first try's 201 calls the claim system again. Judged when the partner did answer
    it 201 and every claim was decided (one never tried again is M6.1's).""",
    "재시도에서 성공한 뒤 같은 프로세스에 다시 옴",
)
RESENT_AS_NEW = edge(
    SEEN_BEFORE,
    "RESENT_AS_NEW",
    "M8.1",
    "dedup",
    """Beside that repeat, the same claim (claimId, documents, every field) under a new guid, so
    a new message_id: the lab de-duplicates by message_id, so it is no duplicate: POSTed once,
    acked. A consumer that keys its record on claimId (or on the body without its guid) acks it
    without calling: a message lost.""",
    "claimId 는 같고 message_id 가 새 것인 청구(중복 아님)",
)
DUP_AFTER_KILL = edge(
    LIFETIME,
    "DUP_AFTER_KILL",
    "M8.2",
    "dedup",
    """A fresh claim published with SQLite's write lock held on EAI_MQ_DB, and that process
    SIGKILLed as soon as it is seen to have acked it: a consumer that records before its ack
    waits at the lock (seen asleep with the file open, its POST answered) and is let go on to
    record and ack first; one that acks first is killed with its record unwritten, in every
    run. Then that claim and the earlier one, published again (one-line JSON, same
    message_id), to a new consumer process on the same EAI_MQ_DB: no POST for either, both
    acked, and it does not crash (when it ends is M4.2's business). Records kept in memory
    until exit, never committed, or written after the ack fail.""",
    "ack 직후 SIGKILL 뒤 다시 띄운 소비자(같은 EAI_MQ_DB)",
)
KILLED_AT_ITS_ACK = edge(
    LIFETIME,
    "KILLED_AT_ITS_ACK",
    "M8.2",
    "killed_at_its_ack",
    """The lab's own case ("기록과 ack 사이에 죽어도 다음에 온 같은 메시지는 기록 덕분에
    걸러집니다"): a consumer stopped and SIGKILLed as its ack of a fresh claim is read on its way
    out, the ack kept from the broker, so the claim comes back flagged redelivered; a new
    consumer on the same EAI_MQ_DB acks it without a POST. A record looked up only for messages
    not redelivered, or counted only once a mark written after the ack is there, calls the
    claim system again. Judged where the grader carries the consumer's connection (not in host
    mode) and the claim came back (an auto-ack consumer loses it: M4.3's and M4.4's).""",
    "기록과 ack 사이에 SIGKILL 뒤 redelivered 로 다시 온 청구(같은 EAI_MQ_DB)",
)
DB_AT_PATH = edge(
    RECORD_DB,
    "DB_AT_PATH",
    "M8.3",
    "dedup",
    """After the runs: a file at EAI_MQ_DB (a fresh path per scenario), SQLite, and one of its
    tables names the processed message_id (any table, any column, any shape).""",
    "EAI_MQ_DB 의 기록",
)
RETRY_AFTER_503 = edge(
    SEEN_BEFORE,
    "RETRY_AFTER_503",
    "M8.4",
    "record_only_success",
    """A BUSY claim answered 503 in a first run (the consumer stopped only after a barrier
    claim shows it has finished what it did after its failures; a correct one dead-letters it
    after two), published again once the partner accepts BUSY claims, to a new process on the
    same EAI_MQ_DB: POSTed once more, acked. Judged when the first run did POST it; where it
    went then is M6.1's.""",
    "첫 실행에서 503 을 받았던 청구",
)
RETRY_AFTER_422 = edge(
    SEEN_BEFORE,
    "RETRY_AFTER_422",
    "M8.4",
    "record_only_success",
    """A no-docs claim answered 422 in the first run, published again with documents added
    (same guid, same message_id): POSTed once more, acked. Judged when the first run did
    POST it (where it went then is M5.1's); at least one of the two classes must be judged.""",
    "첫 실행에서 422 를 받았던 청구(서류를 채워 다시 발행)",
)
KILLED_BEFORE_ANSWER = edge(
    SEEN_BEFORE,
    "KILLED_BEFORE_ANSWER",
    "M8.4",
    "record_only_success",
    """A good claim whose POST the partner holds unanswered when its consumer is SIGKILLed (the
    call then dropped: the claim system never accepted it), back in claim.in for the next
    consumer on the same EAI_MQ_DB, the partner accepting again: not acked without a POST. A
    record written before the success (even one deleted again when the call fails) makes the
    next consumer ack it without calling: the claim is lost. Dead-lettered without a call is
    the lab's decision (no second chance is counted on for a message returned because its
    consumer stopped); what is done with its 201 is M6.1's. Judged when the call was held and
    the claim came back to claim.in (one acked before its answer is M4.3's and M4.4's).""",
    "POST 의 응답 전에 SIGKILL 된 청구(같은 EAI_MQ_DB 로 다시 띄운 소비자)",
)

# Anomalies that meet in one claim: every pair of families produced together, or why never.
_CLAIM = MAP.unit(
    "one claim",
    business_rejection=(REJECT_ONE, REJECT_SEVERAL),
    transient_failure=(BUSY_ONE, BUSY_SEVERAL, BUSY_THEN_ACCEPTED),
    no_answer=(HANG_TWICE, HANG_BUSY),
    refused=(REFUSED,),
    seen_before=(DUP_LATER, DUP_AFTER_RETRY),
    killed=(KILL_HELD, KILL_AFTER_201, KILLED_AT_ITS_ACK),
)
_ONE_ANSWER = (
    "the claim system answers a claim by its kind (no docs: 422, BUSY: 503), and when it holds "
    "or refuses calls it does so for every claim: one claim never meets both"
)
for a, b in (
    ("business rejection", "transient failure"),
    ("business rejection", "no answer"),
    ("business rejection", "refused"),
    ("transient failure", "no answer"),
    ("transient failure", "refused"),
    ("no answer", "refused"),
):
    MAP.meet(_CLAIM, a, b, why=_ONE_ANSWER)
MAP.meet(_CLAIM, "business rejection", "seen before", RETRY_AFTER_422)
MAP.meet(_CLAIM, "transient failure", "seen before", RETRY_AFTER_503)
_TRANSIENT = (
    "a call that times out or is refused is a transient failure (M6.2, M6.3): a message_id "
    "seen before after one is met through the 503 (RETRY_AFTER_503)"
)
MAP.meet(_CLAIM, "no answer", "seen before", why=_TRANSIENT)
MAP.meet(_CLAIM, "refused", "seen before", why=_TRANSIENT)
MAP.meet(_CLAIM, "killed", "seen before", DUP_AFTER_KILL)
MAP.meet(_CLAIM, "killed", "no answer", KILL_HELD)
_KILL = (
    "M4.3 and M4.4 judge where a claim is kept when its consumer dies around a call; what the "
    "claim system answered cannot make it lost or acked early (a kill before the answer is "
    "read: KILL_AFTER_201, for a 201)"
)
for family in ("business rejection", "transient failure", "refused"):
    MAP.meet(_CLAIM, "killed", family, why=_KILL)


def named(name: str) -> Partition:
    return next(edge for edge in EDGES if edge.key == name)


def of(rid: str) -> list[Partition]:
    return MAP.partitions(rid)


def ensure(scenario: str, covered: Iterable[Partition]) -> None:
    """Every partition ``scenario`` must produce was produced; otherwise a harness fault."""
    MAP.ensure(scenario, covered)


def markdown(ids: list[str]) -> str:
    """The published table, by requirement id and by input."""
    intro = """
Generated from the partition map (grader/mq/edges.py and the partitions the scenarios declare)
by `./dev.sh edges`. Every run produces every partition below; the seed only varies values
inside one (guids, claim numbers, amounts, names, the order of a mixed queue, which a good claim
always opens and closes). A FAIL names the partition that failed as `[경우: …]`.
"""
    return MAP.markdown("The mq lab's partition map", intro, ids)
