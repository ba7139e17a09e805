-- order-check.sql — 주문(order_no)별 seq 검증
--   중복: 행 수 <> 서로 다른 seq 수
--   누락: MIN..MAX 사이 칸 수 <> 서로 다른 seq 수
-- 둘을 따로 비교하므로 중복과 누락이 한 주문에 같이 있어도 잡힘. 정상이면 0행.
SELECT order_no,
       COUNT(*)                AS rows_n,
       COUNT(DISTINCT seq)     AS distinct_seq,
       MIN(seq)                AS min_seq,
       MAX(seq)                AS max_seq
FROM processed
GROUP BY order_no
HAVING COUNT(*) <> COUNT(DISTINCT seq)
    OR MAX(seq) - MIN(seq) + 1 <> COUNT(DISTINCT seq)
ORDER BY order_no;
