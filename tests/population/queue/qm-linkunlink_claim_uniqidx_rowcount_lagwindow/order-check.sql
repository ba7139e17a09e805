-- seq must go up by exactly 1 inside an order_no.
-- diff 0  -> same seq twice; diff > 1 -> hole (any width).
SELECT order_no, prev_seq, seq
FROM (
    SELECT order_no, seq,
           LAG(seq) OVER (PARTITION BY order_no ORDER BY seq) AS prev_seq
    FROM processed
)
WHERE prev_seq IS NOT NULL
  AND seq - prev_seq <> 1
ORDER BY order_no, seq;
