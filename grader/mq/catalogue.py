"""The mq lab's facts: its requirement ids, steps, heading and the path it grades.

Ids are stable (results files and students' notes refer to them); titles and hints are what
students read. The table with the requirement behind each id is ../shared/labs/mq.md.
"""

from __future__ import annotations

from grader.catalogue import Lab

MQ_DIR = "eaimw/mq"  # LAB_ROOT/eaimw/mq: status.txt and the student's scripts

REQUIREMENTS: list[tuple[str, str, str]] = [
    (
        "M1.1",
        "status.txt 가 rabbit@localhost 노드의 rabbitmqctl status 출력이다",
        "rabbitmqctl -n rabbit@localhost status > /root/eaimw/mq/status.txt",
    ),
    (
        "M1.2",
        "status.txt 에 메모리 경보 기준 0.5369 gb(절대값 512MiB)가 보인다",
        "mq-up.sh 로 띄운 노드의 status 를 저장하세요.",
    ),
    (
        "M1.3",
        "rabbit@localhost 노드가 살아 있고 경보 기준이 512MiB 이다",
        "bash /opt/lab/fixtures/eaimw/mq/mq-up.sh 로 브로커를 띄우세요.",
    ),
    (
        "M2.1",
        "topology.py 는 두 번 돌려도 안전하다: 빈 vhost(EAI_AMQP_URL)에서 두 번 연달아 0 으로 끝나고, "
        "두 번째 실행이 claim.in·claim.dead 에 기다리던 청구를 잃지 않는다",
        "EAI_AMQP_URL 을 읽어 pika.URLParameters 로 접속하고 선언만 하세요: 같은 속성으로 다시 선언하면 "
        "아무 일도 없습니다(지우고 다시 만들면 기다리던 청구를 잃습니다).",
    ),
    (
        "M2.2",
        "eai.claim, eai.dlx 가 direct, durable 로 있다",
        "exchange_declare(exchange=..., exchange_type='direct', durable=True)",
    ),
    (
        "M2.3",
        "claim.in 이 durable 이고 DLX 인자 두 개가 정확하며 claim.dead 가 durable 이다",
        "arguments={'x-dead-letter-exchange': 'eai.dlx', 'x-dead-letter-routing-key': 'claim.dead'}",
    ),
    (
        "M2.4",
        "바인딩 두 개(eai.claim→claim.in 키 claim, eai.dlx→claim.dead 키 claim.dead)",
        "queue_bind(queue, exchange, routing_key=...)",
    ),
    (
        "M3.1",
        "publish.py 가 0 으로 끝나고 claim.in 에 본문이 파일의 JSON 인 메시지가 하나 있다",
        "파일 내용을 그대로 body 로 보내세요.",
    ),
    (
        "M3.2",
        "delivery_mode 2, message_id=guid, content_type application/json, eai.claim/claim",
        "pika.BasicProperties(delivery_mode=2, message_id=claim['guid'], content_type='application/json')",
    ),
    (
        "M3.3",
        "라우팅할 큐가 없으면 0 이 아닌 코드로 끝난다",
        "confirm_delivery() 뒤 basic_publish(..., mandatory=True) 는 UnroutableError 를 냅니다.",
    ),
    (
        "M3.4",
        "브로커가 거절(nack)하면 0 이 아닌 코드로 끝난다",
        "confirm_delivery() 를 켜면 거절이 NackError 로 옵니다.",
    ),
    (
        "M4.1",
        "정상 청구: 건마다 POST 한 번, 본문 동일, 모두 ack, 끝나면 claim.in 이 빈다",
        "201 을 받으면 basic_ack(delivery_tag).",
    ),
    (
        "M4.2",
        "소비자가 큐가 비어 있든 바쁘든 --max-seconds 뒤에 스스로 끝난다",
        "consume(..., inactivity_timeout=0.5) 로 돌며 메시지마다, 그리고 쉬는 동안에도 남은 시간을 "
        "확인하세요(inactivity_timeout 은 쉬는 시간만 잽니다).",
    ),
    (
        "M4.3",
        "청구 시스템 응답을 기다리는 중 소비자를 죽여도(SIGKILL) 메시지를 잃지 않는다",
        "auto_ack 를 쓰지 말고 201 을 받은 뒤에 ack 하세요(흔한 실수: auto_ack=True).",
    ),
    ("M4.4", "ack 는 201 뒤에만 한다(그 전이 아니다)", "POST 결과를 본 다음에 ack 하세요."),
    (
        "M5.1",
        "422 청구: POST 한 번, 되돌리지 않고 claim.dead 로(x-death reason rejected)",
        "업무 거절은 basic_reject(requeue=False). 되돌리면 독 메시지가 됩니다.",
    ),
    (
        "M6.1",
        "503 청구는 한 번 더 시도(POST 정확히 두 번): 또 503 이면 claim.dead, 201 이면 ack",
        "method.redelivered 가 False 면 nack(requeue=True), True 면 reject(requeue=False)."
        " 다시 온 메시지도 청구 시스템을 불러 그 답으로 처리하세요(201 이면 기록하고 ack).",
    ),
    (
        "M6.2",
        "청구 시스템이 꺼져 있으면(연결 거부) 한 번 재배달 뒤 claim.dead, 소비자는 죽지 않는다",
        "연결 실패(requests.ConnectionError, URLError)도 일시 오류로 다루세요.",
    ),
    (
        "M6.3",
        "청구 시스템이 멈추면 시간 초과로 일시 오류 처리, 소비자는 --max-seconds 즈음 끝난다",
        "HTTP 호출에 timeout(예: 2초)을 주세요.",
    ),
    (
        "M7.1",
        "기본 prefetch: 느린 청구 시스템 앞에서 unacked 가 5 를 넘지 않고 5 에 닿는다",
        "consume 전에 ch.basic_qos(prefetch_count=args.prefetch), 기본값 5.",
    ),
    (
        "M7.2",
        "--prefetch 2: unacked 가 2 를 넘지 않고 2 에 닿는다",
        "argparse 의 --prefetch 값을 basic_qos 에 넘기세요.",
    ),
    (
        "M8.1",
        "성공한 message_id 를 다시 발행하면 POST 없이 ack 한다(재시도에서 성공한 것도; 중복은 message_id 로만"
        " 판단)",
        "처리 전에 SQLite 에서 message_id 를 찾아보세요"
        "(claimId 가 같아도 message_id 가 새 것이면 새 메시지). 성공하면 어느 길에서든 기록하세요.",
    ),
    (
        "M8.2",
        "소비자를 다시 띄워도(같은 EAI_MQ_DB) 기억한다: ack 직후 SIGKILL 로 죽었어도",
        "기록은 메모리(set)가 아니라 SQLite 파일에 남기고, ack 하기 전에 commit 하세요.",
    ),
    (
        "M8.3",
        "기록이 $EAI_MQ_DB 에 있다(SQLite 파일이 생기고 처리한 message_id 가 들어 있다)",
        "os.environ.get('EAI_MQ_DB', '/root/eaimw/mq/processed.db')",
    ),
    (
        "M8.4",
        "성공만 기록한다: DLQ 로 간 청구를 나중에 다시 보낼 때도, 응답을 받기 전에 죽은 소비자의 청구를"
        " 다음 소비자가 받을 때도 다시 POST 하고 ack 한다",
        "201 을 받은 뒤에만 기록하고, 그다음 ack 하세요.",
    ),
]

MQ = Lab.declare(
    "mq",
    # The lab text's title is Chinese; students read Korean: "claims through a queue — none
    # lost, none processed twice".
    heading="보험 청구를 큐로 — 잃지 않고, 두 번 처리하지 않기",
    original_title="理赔走队列 — 不丢失，不重复处理",
    steps={
        1: "브로커 기동과 상태 기록",
        2: "교환기·큐·DLX 선언",
        3: "확인을 받는 발행자",
        4: "처리한 뒤에만 ack",
        5: "업무 거절은 DLQ 로",
        6: "일시 오류는 한 번 더, 그래도 안 되면 DLQ",
        7: "prefetch 로 떠안는 양 제한",
        8: "같은 message_id 는 한 번만",
    },
    paths=(MQ_DIR,),
    requirements=REQUIREMENTS,
    # A process a script leaves running fails the id that judges how that script ends.
    leftover_judges={"topology.py": "M2.1", "publish.py": "M3.1", "consumer.py": "M4.2"},
    order=2,
    needs_broker=True,
    away_note=(
        "M1.x(브로커 단계)는 학생 파드 밖에서 채점했습니다. M1.1·M1.2 는 제출된 status.txt 로 판정하며, "
        "M1.3(살아 있는 노드)은 채점용 브로커를 보므로 학생의 파드를 판정하지 않습니다."
    ),
)
