-- 같은 order_no 안에서 seq 중복 / 누락 찾기 (0행 = 정상)
-- 누락: 주문별 MIN(seq)..MAX(seq) 를 재귀 CTE 로 펼쳐서 없는 번호를 찾는다
WITH RECURSIVE bounds AS (
    SELECT order_no, MIN(seq) AS lo, MAX(seq) AS hi FROM processed GROUP BY order_no
), expected(order_no, seq, hi) AS (
    SELECT order_no, lo, hi FROM bounds
    UNION ALL
    SELECT order_no, seq + 1, hi FROM expected WHERE seq < hi
)
SELECT e.order_no, e.seq, '누락(missing)' AS problem
  FROM expected AS e
 WHERE NOT EXISTS (SELECT 1 FROM processed AS p WHERE p.order_no = e.order_no AND p.seq = e.seq)
UNION ALL
SELECT order_no, seq, '중복(duplicate)'
  FROM processed
 GROUP BY order_no, seq
HAVING COUNT(*) > 1
ORDER BY 1, 2;
