"""The queue lab's facts: its requirement ids, steps, heading and the path it grades.

Ids are stable (results files and students' notes refer to them); titles and hints are what
students read. The table with the requirement behind each id is ../shared/labs/queue.md.
"""

from __future__ import annotations

from grader.catalogue import Lab

Q_DIR = "q"  # LAB_ROOT/q: the student's queue, scripts and reports

REQUIREMENTS: list[tuple[str, str, str]] = [
    (
        "Q1.1",
        "네 디렉터리(inbox, processing, done, error)가 있다",
        "mkdir -p /root/q/{inbox,processing,done,error}",
    ),
    (
        "Q1.2",
        "픽스처의 모든 파일이 복사되었다(잃어버리거나 새로 생긴 파일 없음)",
        "cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/ 로 20개를 모두 복사하세요.",
    ),
    ("Q2.1", "schema.csv 첫 줄이 정확히 field,type,role 이다", "첫 줄은 공백 없이 field,type,role 입니다."),
    (
        "Q2.2",
        "field 열이 정상 메시지의 필드 전체와 같다",
        "정상 메시지 하나를 열어 모든 키를 한 줄씩 적으세요(빠뜨리거나 없는 필드를 넣지 않기).",
    ),
    (
        "Q2.3",
        "msg_id 는 idempotency-key, seq 는 sequence, 다른 필드에는 그 역할이 없다",
        "멱등키는 msg_id, 순서 판정은 seq 입니다.",
    ),
    (
        "Q2.4",
        "각 필드의 type 이 실제 값과 맞다",
        "id 는 string/text, seq 는 integer, amount 는 number 류(integer/number/decimal).",
    ),
    (
        "Q3.1",
        "ledger.db 의 processed 테이블: msg_id 가 PRIMARY KEY/UNIQUE, 필요한 컬럼이 있다",
        "CREATE TABLE processed (msg_id TEXT PRIMARY KEY, order_no, seq, amount, processed_at). "
        "중복 방지는 DB 제약이 마지막 방어선입니다(흔한 실수 2).",
    ),
    ("Q3.2", "processing/ 이 비어 있다", "처리가 끝난 파일은 done/ 이나 error/ 로 옮겨야 합니다."),
    (
        "Q3.3",
        "새 메시지로 돌린 consume.py 가 정상은 done/, 파싱 실패·필수 필드 누락은 error/ 로 보낸다",
        "JSON 이 아니거나 객체가 아니면 parse, msg_id·order_no·seq·amount 중 하나라도 없거나 "
        "null 이면 missing-field 입니다.",
    ),
    (
        "Q3.4",
        "파일이 processing/ 을 거쳐 간다(옮긴 뒤 읽기)",
        "inbox 에서 바로 읽지 말고 os.rename 으로 processing/ 에 옮긴 뒤 읽으세요. "
        "소비자를 두 개 띄우면 같은 메시지를 둘 다 처리합니다(흔한 실수 3).",
    ),
    (
        "Q3.5",
        "processed 의 행이 정상 메시지와 같다(order_no, seq, amount, processed_at)",
        "메시지 값 그대로 넣고 processed_at 에 처리 시각을 기록하세요.",
    ),
    (
        "Q3.6",
        "같은 메시지로 다시 돌려도 행이 늘지 않는다",
        "INSERT OR IGNORE 또는 ON CONFLICT DO NOTHING 으로 DB 가 중복을 거르게 하세요.",
    ),
    (
        "Q3.7",
        "consume.py 두 개를 동시에 돌려도 각 파일이 한 번만 처리된다",
        "os.rename 경쟁에서 진 쪽(FileNotFoundError)은 그 파일을 건너뛰고, 중복은 DB 제약으로 "
        "거르세요(흔한 실수 2, 3).",
    ),
    (
        "Q3.8",
        "독약 메시지가 돌지 않는다: 실행이 끝나고 error/ 에 남는다",
        "파싱 실패 메시지를 inbox 로 돌려보내면 무한 루프가 됩니다(흔한 실수 1).",
    ),
    ("Q4.1", "done/ 18개, error/ 2개", "중복 메시지도 done/ 으로 갑니다(무시되었을 뿐 처리 완료)."),
    (
        "Q4.2",
        "processed 가 중복 제거된 15건, 곧 고유한 msg_id 전부",
        "같은 msg_id 는 한 행만: PRIMARY KEY/UNIQUE 와 INSERT OR IGNORE.",
    ),
    (
        "Q4.3",
        "dup.txt 에 중복 msg_id 3건이 한 줄에 하나씩 오름차순으로 있다",
        "파일 이름이 아니라 msg_id 를 적고 sort 로 정렬하세요.",
    ),
    (
        "Q5.1",
        "error.csv: 첫 줄 file,reason, error/ 의 파일마다 한 줄, 사유(parse/missing-field)가 맞다",
        "file 열은 파일 이름(basename), reason 은 parse 또는 missing-field.",
    ),
    (
        "Q6.1",
        "order-check.sql 이 학생의 ledger.db 에서 0행을 돌려준다",
        "정상 데이터에서 아무 행도 나오지 않아야 합니다. seq 를 문자로 비교하면 10 이 2 보다 앞에 옵니다.",
    ),
    (
        "Q6.2",
        "한 주문 안에서 seq 가 중복되면 행을 돌려준다",
        "GROUP BY order_no, seq HAVING COUNT(*) > 1 또는 LAG(seq) 로 같은 값 찾기.",
    ),
    (
        "Q6.3",
        "한 주문 안에서 seq 가 비면(1,2,4) 행을 돌려준다",
        "LAG(seq) 와의 차이가 1 보다 크거나, MAX-MIN+1 이 개수와 다른 주문을 찾으세요.",
    ),
    (
        "Q6.4",
        "여러 주문의 정상 데이터(seq 10 이상 포함)에서 0행을 돌려준다",
        "seq 는 정수로 비교하세요(문자 비교면 1,10,2 순서가 됩니다).",
    ),
    ("Q6.5", "order-result.txt 첫 줄이 OK 이다", "문제가 없으면 첫 줄에 OK 를 적습니다."),
    (
        "Q7.1",
        "lag.sh 가 주어진 큐 디렉터리의 건수를 inbox=<n> processing=<n> error=<n> 한 줄로 출력한다",
        "인자로 받은 디렉터리($1)를 세고, /root/q 를 고정해 쓰지 마세요.",
    ),
    (
        "Q7.2",
        "inbox 건수가 임계치 이하면 0, 초과하면 0 이 아닌 종료 코드",
        '같을 때는 초과가 아닙니다: [ "$inbox" -gt "$2" ] 일 때만 exit 1(또는 2).',
    ),
    ("Q8.1", "error/ 의 파일을 내용 그대로 inbox/ 로 옮기고 0 으로 끝난다", 'mv "$Q/error/$1" "$Q/inbox/"'),
    (
        "Q8.2",
        "error/ 에 없는 이름이면 큐를 바꾸지 않고 0 이 아닌 코드로 끝난다",
        '[ -f "$Q/error/$1" ] || exit 1 로 먼저 확인하세요.',
    ),
    (
        "Q8.3",
        "위험한 이름(../done/x.json, 절대 경로, 빈 이름, 공백 포함)을 거부한다",
        "이름에 / 가 있거나 비어 있으면 거부하세요. mv -n 은 실패해도 0 을 돌려줍니다.",
    ),
]

QUEUE = Lab.declare(
    "queue",
    heading="파일 큐 소비자와 멱등 재처리",
    original_title="파일 큐 소비자와 멱등 재처리 구현",
    steps={
        1: "큐 디렉터리 구성",
        2: "메시지 구조 파악",
        3: "소비자 구현과 실행",
        4: "멱등성 확인",
        5: "실패 사유 분류",
        6: "순서 보장 검증",
        7: "적체 모니터링 스크립트",
        8: "재처리 스크립트",
    },
    paths=(Q_DIR,),
    requirements=REQUIREMENTS,
    # A process a script leaves running fails the id that judges how that script ends.
    leftover_judges={"consume.py": "Q3.3", "lag.sh": "Q7.1", "replay.sh": "Q8.1"},
    order=1,
)
