-- order-check.sql
-- 주문별로 MIN~MAX 사이 seq 를 전부 만들어서(재귀 CTE) 없는 것 = 누락,
-- 같은 (order_no, seq) 가 2건 이상 = 중복
WITH RECURSIVE
  범위 AS (
    SELECT order_no, MIN(seq) AS lo, MAX(seq) AS hi
    FROM processed
    GROUP BY order_no
  ),
  기대(order_no, seq, hi) AS (
    SELECT order_no, lo, hi FROM 범위
    UNION ALL
    SELECT order_no, seq + 1, hi FROM 기대 WHERE seq < hi
  )
SELECT e.order_no, e.seq, 'missing' AS problem
FROM 기대 e
WHERE NOT EXISTS (SELECT 1 FROM processed p
                  WHERE p.order_no = e.order_no AND p.seq = e.seq)
UNION ALL
SELECT order_no, seq, 'duplicate'
FROM processed
GROUP BY order_no, seq
HAVING COUNT(*) > 1
ORDER BY 1, 2;
