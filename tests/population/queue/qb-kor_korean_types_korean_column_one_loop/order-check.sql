-- 주문별 seq 검증 (LEAD 윈도 함수)
-- 다음 seq 와 같으면 중복, 2 이상 차이나면 그 사이가 비어 있음(누락)
SELECT order_no, seq, next_seq,
       CASE WHEN next_seq = seq THEN '중복' ELSE '누락' END AS 판정
FROM (
    SELECT order_no, seq,
           LEAD(seq) OVER (PARTITION BY order_no ORDER BY seq) AS next_seq
    FROM processed
) t
WHERE next_seq IS NOT NULL
  AND (next_seq = seq OR next_seq > seq + 1);
