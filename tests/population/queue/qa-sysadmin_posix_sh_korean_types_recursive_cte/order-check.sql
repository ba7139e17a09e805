-- 같은 order_no 안에서 seq 중복 / 빈 번호 찾기
WITH RECURSIVE
  r(order_no, lo, hi) AS (SELECT order_no, MIN(seq), MAX(seq) FROM processed GROUP BY order_no),
  want(order_no, seq, hi) AS (
    SELECT order_no, lo, hi FROM r
    UNION ALL
    SELECT order_no, seq + 1, hi FROM want WHERE seq < hi)
SELECT w.order_no, w.seq, 'missing' FROM want w
 WHERE NOT EXISTS (SELECT 1 FROM processed p WHERE p.order_no = w.order_no AND p.seq = w.seq)
UNION ALL
SELECT order_no, seq, 'duplicate' FROM processed GROUP BY order_no, seq HAVING COUNT(*) > 1;
