.headers on
.mode column
-- 6단계: 주문(order_no)별로 seq 가 중복되거나 빠진 주문을 찾는다.
--   중복: 행 수 <> 서로 다른 seq 수
--   누락: (최대 - 최소 + 1) <> 서로 다른 seq 수
SELECT order_no,
       COUNT(*)            AS n_rows,
       COUNT(DISTINCT seq) AS n_seq,
       MIN(seq)            AS first_seq,
       MAX(seq)            AS last_seq
FROM processed
GROUP BY order_no
HAVING COUNT(*) <> COUNT(DISTINCT seq)
    OR MAX(seq) - MIN(seq) + 1 <> COUNT(DISTINCT seq);
