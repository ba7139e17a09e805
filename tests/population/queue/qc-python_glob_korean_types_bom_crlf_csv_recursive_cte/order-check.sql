-- 같은 order_no 안에서 seq 중복 / 누락 찾기
WITH RECURSIVE
  bounds(order_no, lo, hi) AS (
    SELECT order_no, MIN(seq), MAX(seq) FROM processed GROUP BY order_no
  ),
  expected(order_no, seq, hi) AS (
    SELECT order_no, lo, hi FROM bounds
    UNION ALL
    SELECT order_no, seq + 1, hi FROM expected WHERE seq < hi
  )
SELECT e.order_no, e.seq, '누락' AS 문제
FROM expected e
WHERE NOT EXISTS (SELECT 1 FROM processed p WHERE p.order_no = e.order_no AND p.seq = e.seq)
UNION ALL
SELECT order_no, seq, '중복'
FROM processed
GROUP BY order_no, seq
HAVING COUNT(*) > 1;
