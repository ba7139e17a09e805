-- 주문(order_no)별로 seq 가 중복되거나 빠진 곳 찾기
-- LAG 로 바로 앞 seq 랑 비교: 같으면 중복, 2 이상 차이나면 빈 곳
WITH s AS (
    SELECT order_no,
           seq,
           LAG(seq) OVER (PARTITION BY order_no ORDER BY seq) AS prev_seq
    FROM processed
)
SELECT order_no,
       prev_seq,
       seq,
       CASE WHEN seq = prev_seq THEN 'DUP' ELSE 'GAP' END AS problem
FROM s
WHERE prev_seq IS NOT NULL
  AND (seq = prev_seq OR seq - prev_seq > 1);
