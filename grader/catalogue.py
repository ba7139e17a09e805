"""The requirement catalogues of both labs: stable ids, steps, and what students read.

Titles and hints are in Korean, the labs' language; the hints are mostly the lab's own
"common mistakes".
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Requirement:
    id: str
    title: str
    hint: str

    @property
    def lab(self) -> str:
        return "queue" if self.id.startswith("Q") else "mq"

    @property
    def step(self) -> int:
        return int(self.id[1:].split(".")[0])


STEPS: dict[str, dict[int, str]] = {
    "queue": {
        1: "큐 디렉터리 구성",
        2: "메시지 구조 파악",
        3: "소비자 구현과 실행",
        4: "멱등성 확인",
        5: "실패 사유 분류",
        6: "순서 보장 검증",
        7: "적체 모니터링 스크립트",
        8: "재처리 스크립트",
    },
    "mq": {
        1: "브로커 기동과 상태 기록",
        2: "교환기·큐·DLX 선언",
        3: "확인을 받는 발행자",
        4: "처리한 뒤에만 ack",
        5: "업무 거절은 DLQ 로",
        6: "일시 오류는 한 번 더, 그래도 안 되면 DLQ",
        7: "prefetch 로 떠안는 양 제한",
        8: "같은 message_id 는 한 번만",
    },
}

LAB_TITLES = {"queue": "파일 큐 소비자와 멱등 재처리", "mq": "理赔走队列 — 不丢失，不重复处理"}

_Q = [
    ("Q1.1", "네 디렉터리(inbox, processing, done, error)가 있다",
     "mkdir -p /root/q/{inbox,processing,done,error}"),
    ("Q1.2", "픽스처의 모든 파일이 복사되었다(잃어버리거나 새로 생긴 파일 없음)",
     "cp /opt/lab/fixtures/eai/queue/inbox/*.json /root/q/inbox/ 로 20개를 모두 복사하세요."),
    ("Q2.1", "schema.csv 첫 줄이 정확히 field,type,role 이다",
     "첫 줄은 공백 없이 field,type,role 입니다."),
    ("Q2.2", "field 열이 정상 메시지의 필드 전체와 같다",
     "정상 메시지 하나를 열어 모든 키를 한 줄씩 적으세요(빠뜨리거나 없는 필드를 넣지 않기)."),
    ("Q2.3", "msg_id 는 idempotency-key, seq 는 sequence, 다른 필드에는 그 역할이 없다",
     "멱등키는 msg_id, 순서 판정은 seq 입니다."),
    ("Q2.4", "각 필드의 type 이 실제 값과 맞다",
     "id 는 string/text, seq 는 integer, amount 는 number 류(integer/number/decimal)."),
    ("Q3.1", "ledger.db 의 processed 테이블: msg_id 가 PRIMARY KEY/UNIQUE, 필요한 컬럼이 있다",
     "CREATE TABLE processed (msg_id TEXT PRIMARY KEY, order_no, seq, amount, processed_at). "
     "중복 방지는 DB 제약이 마지막 방어선입니다(흔한 실수 2)."),
    ("Q3.2", "processing/ 이 비어 있다",
     "처리가 끝난 파일은 done/ 이나 error/ 로 옮겨야 합니다."),
    ("Q3.3", "새 메시지로 돌린 consume.py 가 정상은 done/, 파싱 실패·필수 필드 누락은 error/ 로 보낸다",
     "JSON 이 아니거나 객체가 아니면 parse, msg_id·order_no·seq·amount 중 하나라도 없거나 "
     "null 이면 missing-field 입니다."),
    ("Q3.4", "파일이 processing/ 을 거쳐 간다(옮긴 뒤 읽기)",
     "inbox 에서 바로 읽지 말고 os.rename 으로 processing/ 에 옮긴 뒤 읽으세요. "
     "소비자를 두 개 띄우면 같은 메시지를 둘 다 처리합니다(흔한 실수 3)."),
    ("Q3.5", "processed 의 행이 정상 메시지와 같다(order_no, seq, amount, processed_at)",
     "메시지 값 그대로 넣고 processed_at 에 처리 시각을 기록하세요."),
    ("Q3.6", "같은 메시지로 다시 돌려도 행이 늘지 않는다",
     "INSERT OR IGNORE 또는 ON CONFLICT DO NOTHING 으로 DB 가 중복을 거르게 하세요."),
    ("Q3.7", "consume.py 두 개를 동시에 돌려도 각 파일이 한 번만 처리된다",
     "os.rename 경쟁에서 진 쪽(FileNotFoundError)은 그 파일을 건너뛰고, 중복은 DB 제약으로 "
     "거르세요(흔한 실수 2, 3)."),
    ("Q3.8", "독약 메시지가 돌지 않는다: 실행이 끝나고 error/ 에 남는다",
     "파싱 실패 메시지를 inbox 로 돌려보내면 무한 루프가 됩니다(흔한 실수 1)."),
    ("Q4.1", "done/ 18개, error/ 2개", "중복 메시지도 done/ 으로 갑니다(무시되었을 뿐 처리 완료)."),
    ("Q4.2", "processed 가 중복 제거된 15건, 곧 고유한 msg_id 전부",
     "같은 msg_id 는 한 행만: PRIMARY KEY/UNIQUE 와 INSERT OR IGNORE."),
    ("Q4.3", "dup.txt 에 중복 msg_id 3건이 한 줄에 하나씩 오름차순으로 있다",
     "파일 이름이 아니라 msg_id 를 적고 sort 로 정렬하세요."),
    ("Q5.1", "error.csv: 첫 줄 file,reason, error/ 의 파일마다 한 줄, 사유(parse/missing-field)가 맞다",
     "file 열은 파일 이름(basename), reason 은 parse 또는 missing-field."),
    ("Q6.1", "order-check.sql 이 학생의 ledger.db 에서 0행을 돌려준다",
     "정상 데이터에서 아무 행도 나오지 않아야 합니다. seq 를 문자로 비교하면 10 이 2 보다 "
     "앞에 옵니다."),
    ("Q6.2", "한 주문 안에서 seq 가 중복되면 행을 돌려준다",
     "GROUP BY order_no, seq HAVING COUNT(*) > 1 또는 LAG(seq) 로 같은 값 찾기."),
    ("Q6.3", "한 주문 안에서 seq 가 비면(1,2,4) 행을 돌려준다",
     "LAG(seq) 와의 차이가 1 보다 크거나, MAX-MIN+1 이 개수와 다른 주문을 찾으세요."),
    ("Q6.4", "여러 주문의 정상 데이터(seq 10 이상 포함)에서 0행을 돌려준다",
     "seq 는 정수로 비교하세요(문자 비교면 1,10,2 순서가 됩니다)."),
    ("Q6.5", "order-result.txt 첫 줄이 OK 이다", "문제가 없으면 첫 줄에 OK 를 적습니다."),
    ("Q7.1", "lag.sh 가 주어진 큐 디렉터리의 건수를 inbox=<n> processing=<n> error=<n> 한 줄로 출력한다",
     "인자로 받은 디렉터리($1)를 세고, /root/q 를 고정해 쓰지 마세요."),
    ("Q7.2", "inbox 건수가 임계치 이하면 0, 초과하면 0 이 아닌 종료 코드",
     "같을 때는 초과가 아닙니다: [ \"$inbox\" -gt \"$2\" ] 일 때만 exit 1(또는 2)."),
    ("Q8.1", "error/ 의 파일을 내용 그대로 inbox/ 로 옮기고 0 으로 끝난다",
     "mv \"$Q/error/$1\" \"$Q/inbox/\""),
    ("Q8.2", "error/ 에 없는 이름이면 큐를 바꾸지 않고 0 이 아닌 코드로 끝난다",
     "[ -f \"$Q/error/$1\" ] || exit 1 로 먼저 확인하세요."),
    ("Q8.3", "위험한 이름(../done/x.json, 절대 경로, 빈 이름, 공백 포함)을 거부한다",
     "이름에 / 가 있거나 비어 있으면 거부하세요. mv -n 은 실패해도 0 을 돌려줍니다."),
]

_M = [
    ("M1.1", "status.txt 가 rabbit@localhost 노드의 rabbitmqctl status 출력이다",
     "rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt"),
    ("M1.2", "status.txt 에 메모리 경보 기준 0.5369 gb(절대값 512MiB)가 보인다",
     "mq-up.sh 로 띄운 노드의 status 를 저장하세요."),
    ("M1.3", "rabbit@localhost 노드가 살아 있고 경보 기준이 512MiB 이다",
     "bash /opt/lab/fixtures/eaimw/mq/mq-up.sh 로 브로커를 띄우세요."),
    ("M2.1", "topology.py 를 빈 vhost 에서 두 번 연달아 돌려도 0 으로 끝난다(EAI_AMQP_URL 사용)",
     "EAI_AMQP_URL 을 읽어 pika.URLParameters 로 접속하세요. 같은 속성으로 다시 선언하면 "
     "아무 일도 없습니다."),
    ("M2.2", "eai.claim, eai.dlx 가 direct, durable 로 있다",
     "exchange_declare(exchange=..., exchange_type='direct', durable=True)"),
    ("M2.3", "claim.in 이 durable 이고 DLX 인자 두 개가 정확하며 claim.dead 가 durable 이다",
     "arguments={'x-dead-letter-exchange': 'eai.dlx', 'x-dead-letter-routing-key': 'claim.dead'}"),
    ("M2.4", "바인딩 두 개(eai.claim→claim.in 키 claim, eai.dlx→claim.dead 키 claim.dead)",
     "queue_bind(queue, exchange, routing_key=...)"),
    ("M3.1", "publish.py 가 0 으로 끝나고 claim.in 에 본문이 파일의 JSON 인 메시지가 하나 있다",
     "파일 내용을 그대로 body 로 보내세요."),
    ("M3.2", "delivery_mode 2, message_id=guid, content_type application/json, eai.claim/claim",
     "pika.BasicProperties(delivery_mode=2, message_id=claim['guid'], "
     "content_type='application/json')"),
    ("M3.3", "라우팅할 큐가 없으면 0 이 아닌 코드로 끝난다",
     "confirm_delivery() 뒤 basic_publish(..., mandatory=True) 는 UnroutableError 를 냅니다."),
    ("M3.4", "브로커가 거절(nack)하면 0 이 아닌 코드로 끝난다",
     "confirm_delivery() 를 켜면 거절이 NackError 로 옵니다."),
    ("M4.1", "정상 청구: 건마다 POST 한 번, 본문 동일, 모두 ack, 끝나면 claim.in 이 빈다",
     "201 을 받으면 basic_ack(delivery_tag)."),
    ("M4.2", "소비자가 --max-seconds 뒤에 스스로 끝난다",
     "consume(..., inactivity_timeout=0.5) 로 돌며 시간이 지나면 빠져나와 연결을 닫으세요."),
    ("M4.3", "청구 시스템 응답을 기다리는 중 소비자를 죽여도(SIGKILL) 메시지를 잃지 않는다",
     "auto_ack 를 쓰지 말고 201 을 받은 뒤에 ack 하세요(흔한 실수: auto_ack=True)."),
    ("M4.4", "ack 는 201 뒤에만 한다(그 전이 아니다)",
     "POST 결과를 본 다음에 ack 하세요."),
    ("M5.1", "422 청구: POST 한 번, 되돌리지 않고 claim.dead 로(x-death reason rejected)",
     "업무 거절은 basic_reject(requeue=False). 되돌리면 독 메시지가 됩니다."),
    ("M6.1", "503 청구: POST 정확히 두 번, 그다음 claim.dead",
     "method.redelivered 가 False 면 nack(requeue=True), True 면 reject(requeue=False)."),
    ("M6.2", "청구 시스템이 꺼져 있으면(연결 거부) 한 번 재배달 뒤 claim.dead, 소비자는 죽지 않는다",
     "연결 실패(requests.ConnectionError, URLError)도 일시 오류로 다루세요."),
    ("M6.3", "청구 시스템이 멈추면 시간 초과로 일시 오류 처리, 소비자는 --max-seconds 즈음 끝난다",
     "HTTP 호출에 timeout(예: 2초)을 주세요."),
    ("M7.1", "기본 prefetch: 느린 청구 시스템 앞에서 unacked 가 5 를 넘지 않고 5 에 닿는다",
     "consume 전에 ch.basic_qos(prefetch_count=args.prefetch), 기본값 5."),
    ("M7.2", "--prefetch 2: unacked 가 2 를 넘지 않고 2 에 닿는다",
     "argparse 의 --prefetch 값을 basic_qos 에 넘기세요."),
    ("M8.1", "성공한 message_id 를 다시 발행하면 POST 없이 ack 한다",
     "처리 전에 SQLite 에서 message_id 를 찾아보세요."),
    ("M8.2", "소비자를 다시 띄워도(같은 EAI_MQ_DB) 기억한다",
     "기록은 메모리(set)가 아니라 SQLite 파일에 남기세요."),
    ("M8.3", "기록이 $EAI_MQ_DB 에 생긴다",
     "os.environ.get('EAI_MQ_DB', '/root/eaimw/mq/processed.db')"),
    ("M8.4", "성공만 기록한다: DLQ 로 간 청구를 나중에 다시 보내면 다시 POST 하고 ack 한다",
     "201 을 받은 뒤에만 기록하고, 그다음 ack 하세요."),
]

CATALOGUE: dict[str, Requirement] = {
    rid: Requirement(rid, title, hint) for rid, title, hint in _Q + _M
}


def requirements(lab: str) -> list[Requirement]:
    return [r for r in CATALOGUE.values() if r.lab == lab]
